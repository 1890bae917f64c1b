// Fills a fresh world with the orders it already holds when the simulator starts: mostly today's
// pending orders (so the default listing spans pages), plus some already completed, canceled, archived,
// due on later days or picked up on earlier ones.
import type { OrderStatus } from '../shared/api/schemas.js';
import { addDays } from '../shared/time/calendarDate.js';
import type { SeededRandom } from './seededRandom.js';
import type { World } from './world.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const STATUS_WEIGHTS: ReadonlyArray<readonly [OrderStatus, number]> = [
  ['pending', 75],
  ['completed', 12],
  ['canceled', 8],
  ['archived', 5],
];

interface Plan {
  createdAtMs: number;
  pickupOffsetDays: number;
  status: OrderStatus;
}

export function addInitialOrders(world: World, rng: SeededRandom, count: number): void {
  const nowMs = world.now();
  const today = world.today();
  const plans: Plan[] = [];
  for (let i = 0; i < count; i += 1) {
    const status = rng.weighted(STATUS_WEIGHTS);
    const pickupOffsetDays =
      status === 'pending'
        ? rng.weighted([
            [0, 75],
            [1, 12],
            [2, 8],
            [3, 5],
          ] as const)
        : rng.weighted([
            [0, 70],
            [-1, 20],
            [-2, 10],
          ] as const);
    const ageMs =
      pickupOffsetDays < 0
        ? -pickupOffsetDays * DAY_MS + rng.int(HOUR_MS, 20 * HOUR_MS)
        : rng.int(5 * MINUTE_MS, 4 * HOUR_MS);
    plans.push({ createdAtMs: nowMs - ageMs, pickupOffsetDays, status });
  }
  // Creation order gives references that grow with time, as a real sequence would.
  plans.sort((a, b) => a.createdAtMs - b.createdAtMs);
  for (const plan of plans) {
    const order = world.addOrder({
      createdAtMs: plan.createdAtMs,
      pickupDate: addDays(today, plan.pickupOffsetDays),
    });
    if (plan.status === 'pending') continue;
    const resolvedAtMs = plan.createdAtMs + rng.between(0.2, 0.7) * (nowMs - plan.createdAtMs);
    const archived = plan.status === 'archived';
    const resolution = archived ? (rng.chance(0.8) ? 'completed' : 'canceled') : plan.status;
    world.setStatus(order.uuid, resolution, { atMs: resolvedAtMs });
    if (archived) {
      world.setStatus(order.uuid, 'archived', {
        atMs: resolvedAtMs + rng.between(0.3, 0.9) * (nowMs - resolvedAtMs),
      });
    }
  }
}
