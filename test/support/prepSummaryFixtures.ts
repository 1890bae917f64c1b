// Prep summaries for tests, made by the real builder from parsed orders, so tests only spell out what they
// vary: the orders (as item lists and classes), the cancellations and whether the figures are complete.
import { type Order, OrderSchema } from '../../shared/api/schemas.js';
import { buildPrepSummary, type PrepSummaryInput } from '../../shared/events/buildPrepSummary.js';
import type { PrepSummaryEvent } from '../../shared/events/prepSummaryEvent.js';
import { ORGANIZATION, SOURCE } from './detectFixtures.js';
import { ESTABLISHMENT_UUID, makeOrder, makeOrderItem } from './orderFactory.js';

export const PICKUP_DATE = '2026-11-24';
export const CLOSED_AT = '2026-11-24T10:30:00+00:00';
export const RECORDED_AT = '2026-11-24T10:30:04.120Z';
export const MAIN_CANTEEN = { uuid: ESTABLISHMENT_UUID, name: 'Main Canteen' } as const;

export interface OrderSketch {
  /** [sku, name, quantity] per item line, and the line's note after them. */
  items: Array<[string, string, number] | [string, string, number, string]>;
  /** @default '3B' */
  class?: string | null;
  /** The order's own note. @default null */
  notes?: string | null;
  /** @default the factory's */
  reference?: string;
}

/** A pending order of the Main Canteen for PICKUP_DATE, parsed as the API client hands it over. */
export function pendingOrder(sketch: OrderSketch, overrides: Parameters<typeof makeOrder>[0] = {}): Order {
  const base = makeOrder({
    pickup_at: PICKUP_DATE,
    establishment: { ...MAIN_CANTEEN },
    ...(sketch.notes === undefined ? {} : { notes: sketch.notes }),
    ...(sketch.reference === undefined ? {} : { reference: sketch.reference }),
    ...overrides,
  });
  return OrderSchema.parse({
    ...base,
    customer: { ...base.customer, class: sketch.class === undefined ? '3B' : sketch.class },
    items: sketch.items.map(([sku, name, quantity, notes = null]) =>
      makeOrderItem({ sku, name, quantity, notes }),
    ),
  });
}

/** The builder's input for the Main Canteen on PICKUP_DATE; `overrides` replace whole fields. */
export function summaryInput(overrides: Partial<PrepSummaryInput> = {}): PrepSummaryInput {
  return {
    organization: { ...ORGANIZATION },
    establishment: { ...MAIN_CANTEEN },
    pickupDate: PICKUP_DATE,
    closedAt: CLOSED_AT,
    source: SOURCE,
    time: RECORDED_AT,
    orders: [],
    canceledBeforeClosing: 0,
    ...overrides,
  };
}

/** A prep summary of `sketches` (one pending order each). */
export function makePrepSummary(
  sketches: OrderSketch[],
  overrides: Partial<PrepSummaryInput> = {},
): PrepSummaryEvent {
  return buildPrepSummary(
    summaryInput({ orders: sketches.map((sketch) => pendingOrder(sketch)), ...overrides }),
  );
}
