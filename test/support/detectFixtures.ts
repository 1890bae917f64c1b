// Fixtures for the pure core (diff engine, planner, events): parsed orders, snapshots, a diff context and
// a small seeded generator, so tests only spell out what they vary.
import { type Order, type OrderInput, OrderSchema } from '../../shared/api/schemas.js';
import type { DiffContext } from '../../shared/detect/diffOrder.js';
import { observedState, type Snapshot } from '../../shared/detect/snapshot.js';
import { makeOrder } from './orderFactory.js';

export const ORGANIZATION = { id: '0e9a0000-0000-4000-8000-00000000000a', name: 'North School' } as const;
/** The organization's zone, as the config gives it and its events carry it (`organization.time_zone`). */
export const TIME_ZONE = 'Europe/Lisbon';
export const SOURCE = `https://example.test/api/v1/admin/organizations/${ORGANIZATION.id}`;
export const DETECTED_AT = '2026-03-05T10:00:00.000Z';
export const EXPIRES_AT = 1_773_000_000_000;

const LABELS: Record<string, string> = {
  pending: 'Pending',
  completed: 'Completed',
  canceled: 'Canceled',
  archived: 'Archived',
};

export function statusOf(value: string): { label: string; value: string } {
  return { label: LABELS[value] ?? value, value };
}

/** An order as the API client hands it over: made by the factory, then parsed (pickup_at normalized). */
export function parsedOrder(overrides: Partial<OrderInput> = {}): Order {
  return OrderSchema.parse(makeOrder(overrides));
}

/** The same order, later: `changes` applied over a copy of `order` (an unparsed `pickup_at` is parsed). */
export function laterOrder(order: Order, changes: Partial<OrderInput> = {}): Order {
  return OrderSchema.parse({ ...structuredClone(order), ...changes });
}

/** The snapshot a previous cycle would have stored for `order`. */
export function snapshotOf(order: Order, overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    ...observedState(order),
    missingSince: null,
    version: 1,
    expiresAt: EXPIRES_AT,
    ...overrides,
  };
}

export function diffContext(overrides: Partial<DiffContext> = {}): DiffContext {
  return {
    organization: { ...ORGANIZATION, timeZone: TIME_ZONE },
    source: SOURCE,
    detectedAt: DETECTED_AT,
    baseline: false,
    expiresAt: EXPIRES_AT,
    summarySent: () => false,
    ...overrides,
  };
}

/** mulberry32: a tiny deterministic generator for property-style loops. */
export function seededRandom(seed: number): { next(): number; int(min: number, max: number): number } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}
