// Fills a fresh world with a set number of orders per status, their pickup dates spread over a window
// of days around today: pending ones today and ahead, resolved and archived ones mostly already past,
// each with the history a real order would have had (created, then resolved, then archived).
import type { OrderStatus } from '../shared/api/schemas.js';
import { addDays } from '../shared/time/calendarDate.js';
import type { SeededRandom } from './seededRandom.js';
import type { World } from './world.js';

export interface OrderMix {
  /** How many orders the world starts with in each status. */
  counts: Readonly<Record<OrderStatus, number>>;
  /** Pickup dates run from this many days before today... */
  daysBack: number;
  /** ...to this many days after it, in the world's time zone. */
  daysAhead: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const STATUSES: readonly OrderStatus[] = ['pending', 'completed', 'canceled', 'archived'];

interface Plan {
  status: OrderStatus;
  pickupOffsetDays: number;
  createdAtMs: number;
}

export function addOrderMix(world: World, rng: SeededRandom, mix: OrderMix): void {
  const nowMs = world.now();
  const today = world.today();
  const plans: Plan[] = [];
  for (const status of STATUSES) {
    const offsets = pickupOffsetWeights(status, mix);
    for (let i = 0; i < mix.counts[status]; i += 1) {
      const pickupOffsetDays = rng.weighted(offsets);
      // The same time of day on the pickup date: an order is placed before the day it is picked up.
      const pickupMoment = Math.min(nowMs, nowMs + pickupOffsetDays * DAY_MS);
      const leadMs = 5 * MINUTE_MS + Math.min(rng.exponential(10 * HOUR_MS), 3 * DAY_MS);
      plans.push({ status, pickupOffsetDays, createdAtMs: pickupMoment - leadMs });
    }
  }
  // Creation order gives references that grow with time, as a real sequence would.
  plans.sort((a, b) => a.createdAtMs - b.createdAtMs);
  for (const plan of plans) {
    const order = { createdAtMs: plan.createdAtMs, pickupDate: addDays(today, plan.pickupOffsetDays) };
    world.addOrderWithHistory(order, plan.status === 'pending' ? [] : history(rng, plan, nowMs));
  }
}

/** The statuses a resolved or archived order went through, and when. */
function history(rng: SeededRandom, plan: Plan, nowMs: number): Array<{ status: OrderStatus; atMs: number }> {
  const archived = plan.status === 'archived';
  const resolution = archived ? (rng.chance(0.85) ? 'completed' : 'canceled') : plan.status;
  // Resolved by a few hours after the pickup moment, and always before now.
  const latestMs = Math.min(nowMs - MINUTE_MS, nowMs + plan.pickupOffsetDays * DAY_MS + 4 * HOUR_MS);
  const resolvedAtMs = plan.createdAtMs + rng.between(0.3, 1) * (latestMs - plan.createdAtMs);
  const steps = [{ status: resolution, atMs: resolvedAtMs }];
  if (archived) {
    steps.push({ status: 'archived', atMs: resolvedAtMs + rng.between(0.2, 0.9) * (nowMs - resolvedAtMs) });
  }
  return steps;
}

/** `total` orders in the proportions of `mix`, for a smaller or larger world of the same shape. */
export function scaleOrderMix(mix: OrderMix, total: number): OrderMix {
  const sum = STATUSES.reduce((acc, status) => acc + mix.counts[status], 0);
  const counts = { pending: 0, completed: 0, canceled: 0, archived: 0 };
  let assigned = 0;
  for (const status of STATUSES) {
    counts[status] = sum === 0 ? 0 : Math.floor((mix.counts[status] * total) / sum);
    assigned += counts[status];
  }
  // The rounding remainder goes to the largest status, so the total is exact.
  const largest = STATUSES.reduce((best, status) => (mix.counts[status] > mix.counts[best] ? status : best));
  counts[largest] += total - assigned;
  return { ...mix, counts };
}

/** Where in the window each status's pickup dates fall, as weights per day offset from today. */
function pickupOffsetWeights(status: OrderStatus, mix: OrderMix): Array<readonly [number, number]> {
  const weights: Array<readonly [number, number]> = [];
  for (let offset = -mix.daysBack; offset <= mix.daysAhead; offset += 1) {
    const weight = dayWeight(status, offset, mix.daysAhead);
    if (weight > 0) weights.push([offset, weight]);
  }
  // A window too narrow for the status's usual days: today stands in.
  return weights.length > 0 ? weights : [[0, 1]];
}

function dayWeight(status: OrderStatus, offset: number, daysAhead: number): number {
  switch (status) {
    // Most of what waits is for today; fewer orders the further ahead.
    case 'pending':
      return offset < 0 ? 0 : offset === 0 ? 3 : 2 - offset / (daysAhead + 1);
    // Completed when picked up: today's or an earlier day's.
    case 'completed':
      return offset > 0 ? 0 : offset === 0 ? 1.5 : 1;
    // Canceled mostly on or before the day, sometimes ahead of it.
    case 'canceled':
      return offset > 0 ? 0.4 : 1;
    // Archived once the day is over, now and then the same day.
    case 'archived':
      return offset > 0 ? 0 : offset === 0 ? 0.3 : 1;
  }
}
