// Pins the prep_changed planner: each kind of after-closing change and what it does to the kitchen's
// count against what it last heard, several orders in one amendment per establishment and date, both
// kitchens of a move, notes-only changes, what changes nothing, what is never guessed, and the heard
// totals kept between them.
import { describe, expect, it } from 'vitest';
import {
  type ChangedOrder,
  HEARD_ITEMS_MAX_BYTES,
  heardAfter,
  heardOf,
  type KitchenView,
  planPrepChanges,
} from '../../../shared/detect/planPrepChanges.js';
import { type PrepSummaries, prepSummaryKey } from '../../../shared/detect/planPrepSummaries.js';
import type { OrderContent } from '../../../shared/detect/snapshot.js';

const CANTEEN = 'E5A1B2C3-0000-4000-8000-000000000001';
const HALL = 'e5a1b2c3-0000-4000-8000-000000000002';
const DAY = '2026-11-26';
const NEXT_DAY = '2026-11-27';
const KEY = prepSummaryKey(CANTEEN, DAY);

/** The canteen's summary of DAY: 42 lasagnes and 12 soups heard. */
function summaries(extra: PrepSummaries = {}): PrepSummaries {
  return {
    [KEY]: {
      eventId: 'summary-1',
      closedAt: 1,
      complete: true,
      items: {
        LAS: { name: 'Lasagne', quantity: 42 },
        SOUP: { name: 'Soup', quantity: 12 },
      },
    },
    ...extra,
  };
}

/** Item lines by [sku, name, quantity], with notes. */
function content(lines: Array<[string, string, number]>, notes: string | null = null): OrderContent {
  return {
    notes,
    lines: lines.map(([sku, name, quantity], index) => ({
      uuid: `line-${index}`,
      sku,
      name,
      quantity,
      notes: null,
    })),
  };
}

function view(
  lines: Array<[string, string, number]>,
  overrides: Partial<KitchenView> = {},
): KitchenView & { content: OrderContent } {
  return {
    establishmentUuid: CANTEEN,
    pickupDate: DAY,
    counted: true,
    content: content(lines),
    ...overrides,
  } as KitchenView & { content: OrderContent };
}

let next = 0;
function order(
  before: KitchenView | undefined,
  after: KitchenView & { content: OrderContent },
): ChangedOrder {
  next += 1;
  return { uuid: `order-${next}`, reference: `R-${1000 + next}`, eventIds: [`event-${next}`], before, after };
}

describe('planPrepChanges', () => {
  it('gathers a new order and a cancellation into one amendment: both deltas, both orders', () => {
    const created = order(undefined, view([['LAS', 'Lasagne', 1]]));
    const canceledOne = order(
      view([
        ['LAS', 'Lasagne', 2],
        ['SOUP', 'Soup', 1],
      ]),
      view(
        [
          ['LAS', 'Lasagne', 2],
          ['SOUP', 'Soup', 1],
        ],
        { counted: false },
      ),
    );
    expect(planPrepChanges({ summaries: summaries(), orders: [created, canceledOne] })).toEqual([
      {
        key: KEY,
        establishmentUuid: CANTEEN,
        pickupDate: DAY,
        summary: summaries()[KEY],
        items: [
          { sku: 'LAS', name: 'Lasagne', from: 42, to: 41 },
          { sku: 'SOUP', name: 'Soup', from: 12, to: 11 },
        ],
        orders: [
          { uuid: created.uuid, reference: created.reference, change: 'created' },
          { uuid: canceledOne.uuid, reference: canceledOne.reference, change: 'canceled' },
        ],
        eventIds: [...created.eventIds, ...canceledOne.eventIds].sort(),
      },
    ]);
  });

  it('takes a canceled order’s items as the kitchen counted them, not as edited since', () => {
    const edited = order(view([['LAS', 'Lasagne', 3]]), view([['LAS', 'Lasagne', 1]], { counted: false }));
    const [amendment] = planPrepChanges({ summaries: summaries(), orders: [edited] });
    expect(amendment?.items).toEqual([{ sku: 'LAS', name: 'Lasagne', from: 42, to: 39 }]);
  });

  it('counts an updated order by its lines’ difference, and a new item from nothing heard', () => {
    const updated = order(
      view([['LAS', 'Lasagne', 1]]),
      view([
        ['LAS', 'Lasagne', 3],
        ['PIE', 'Apple pie', 1],
      ]),
    );
    const [amendment] = planPrepChanges({ summaries: summaries(), orders: [updated] });
    expect(amendment?.items).toEqual([
      { sku: 'PIE', name: 'Apple pie', from: 0, to: 1 },
      { sku: 'LAS', name: 'Lasagne', from: 42, to: 44 },
    ]);
    expect(amendment?.orders).toEqual([
      { uuid: updated.uuid, reference: updated.reference, change: 'updated' },
    ]);
  });

  it('lists an order whose notes alone changed, with no units', () => {
    const before = view([['LAS', 'Lasagne', 1]]);
    const noted = order(before, { ...before, content: { ...before.content, notes: 'No nuts, please' } });
    const [amendment] = planPrepChanges({ summaries: summaries(), orders: [noted] });
    expect(amendment?.items).toEqual([]);
    expect(amendment?.orders).toEqual([
      { uuid: noted.uuid, reference: noted.reference, change: 'updated', notes_changed: true },
    ]);
  });

  it('tells both kitchens of a move: out of one, into the other', () => {
    const hallKey = prepSummaryKey(HALL, DAY);
    const both = summaries({
      [hallKey]: {
        eventId: 'summary-2',
        closedAt: 1,
        complete: true,
        items: { LAS: { name: 'Lasagne', quantity: 5 } },
      },
    });
    const moved = order(
      view([['LAS', 'Lasagne', 2]]),
      view([['LAS', 'Lasagne', 2]], { establishmentUuid: HALL }),
    );
    const plan = planPrepChanges({ summaries: both, orders: [moved] });
    expect(plan.map(({ key, items, orders }) => ({ key, items, change: orders[0]?.change }))).toEqual([
      { key: KEY, items: [{ sku: 'LAS', name: 'Lasagne', from: 42, to: 40 }], change: 'moved_out' },
      { key: hallKey, items: [{ sku: 'LAS', name: 'Lasagne', from: 5, to: 7 }], change: 'moved_in' },
    ]);
  });

  it('tells only the kitchen whose summary was sent of a move to a day not yet summed up', () => {
    const moved = order(
      view([['LAS', 'Lasagne', 2]]),
      view([['LAS', 'Lasagne', 2]], { pickupDate: NEXT_DAY }),
    );
    const plan = planPrepChanges({ summaries: summaries(), orders: [moved] });
    expect(plan.map((amendment) => [amendment.key, amendment.orders[0]?.change])).toEqual([
      [KEY, 'moved_out'],
    ]);
  });

  it('calls an order moved away and canceled at once canceled', () => {
    const gone = order(
      view([['LAS', 'Lasagne', 1]]),
      view([['LAS', 'Lasagne', 1]], { pickupDate: NEXT_DAY, counted: false }),
    );
    expect(planPrepChanges({ summaries: summaries(), orders: [gone] })[0]?.orders[0]?.change).toBe(
      'canceled',
    );
  });

  it('adds back an order no longer canceled', () => {
    const restored = order(view([['SOUP', 'Soup', 1]], { counted: false }), view([['SOUP', 'Soup', 1]]));
    const [amendment] = planPrepChanges({ summaries: summaries(), orders: [restored] });
    expect(amendment?.orders[0]?.change).toBe('restored');
    expect(amendment?.items).toEqual([{ sku: 'SOUP', name: 'Soup', from: 12, to: 13 }]);
  });

  it('plans nothing for a completed or archived order, or one canceled before and still', () => {
    const lines: Array<[string, string, number]> = [['LAS', 'Lasagne', 1]];
    const completed = order(view(lines), view(lines));
    const archived = order(view(lines, { counted: false }), view(lines, { counted: false }));
    expect(planPrepChanges({ summaries: summaries(), orders: [completed, archived] })).toEqual([]);
  });

  it('lists both orders when their units cancel out, with no item line', () => {
    const created = order(undefined, view([['LAS', 'Lasagne', 1]]));
    const canceledOne = order(
      view([['LAS', 'Lasagne', 1]]),
      view([['LAS', 'Lasagne', 1]], { counted: false }),
    );
    const [amendment] = planPrepChanges({ summaries: summaries(), orders: [created, canceledOne] });
    expect(amendment?.items).toEqual([]);
    expect(amendment?.orders.map((entry) => entry.change)).toEqual(['created', 'canceled']);
  });

  it('never goes below nothing when the summary did not count an order now taken away', () => {
    const uncounted = order(
      view([['PIE', 'Apple pie', 2]]),
      view([['PIE', 'Apple pie', 2]], { counted: false }),
    );
    const [amendment] = planPrepChanges({ summaries: summaries(), orders: [uncounted] });
    // From nothing to nothing is no delta; the order is still named.
    expect(amendment?.items).toEqual([]);
    expect(amendment?.orders[0]?.change).toBe('canceled');
  });

  it('guesses no "from" for a summary recorded before the heard totals were kept', () => {
    const { items: _kept, ...old } = summaries()[KEY] ?? { eventId: '', closedAt: 0, complete: true };
    const created = order(undefined, view([['LAS', 'Lasagne', 1]]));
    expect(planPrepChanges({ summaries: { [KEY]: old }, orders: [created] })).toEqual([]);
  });

  it('amends no summary of another day or establishment, nor one not recorded', () => {
    const elsewhere = order(undefined, view([['LAS', 'Lasagne', 1]], { establishmentUuid: HALL }));
    expect(planPrepChanges({ summaries: summaries(), orders: [elsewhere] })).toEqual([]);
  });

  it('takes a snapshot without content as the order is now: a cancellation still counts', () => {
    const old = order(
      { establishmentUuid: CANTEEN, pickupDate: DAY, counted: true },
      view([['SOUP', 'Soup', 2]], { counted: false }),
    );
    const [amendment] = planPrepChanges({ summaries: summaries(), orders: [old] });
    expect(amendment?.items).toEqual([{ sku: 'SOUP', name: 'Soup', from: 12, to: 10 }]);
  });
});

describe('heardOf and heardAfter', () => {
  it('keeps a summary’s units by sku, adding lines of one sku', () => {
    expect(
      heardOf([
        { sku: 'S', name: 'Soup', quantity: 2 },
        { sku: 'S', name: 'Soup (large)', quantity: 1 },
        { sku: 'L', name: 'Lasagne', quantity: 4 },
      ]),
    ).toEqual({ S: { name: 'Soup', quantity: 3 }, L: { name: 'Lasagne', quantity: 4 } });
  });

  it('moves each delta’s sku to its "to", forgetting what went to nothing', () => {
    const heard = { S: { name: 'Soup', quantity: 3 }, L: { name: 'Lasagne', quantity: 4 } };
    expect(
      heardAfter(heard, [
        { sku: 'S', name: 'Soup', from: 3, to: 0 },
        { sku: 'P', name: 'Pie', from: 0, to: 2 },
      ]),
    ).toEqual({ L: { name: 'Lasagne', quantity: 4 }, P: { name: 'Pie', quantity: 2 } });
  });

  it('keeps no totals that would outgrow the poll state', () => {
    const menu = Array.from({ length: 2000 }, (_, index) => ({
      sku: `SKU-${index}`,
      name: `Dish number ${index}`,
      quantity: 1,
    }));
    expect(Buffer.byteLength(JSON.stringify(menu))).toBeGreaterThan(HEARD_ITEMS_MAX_BYTES);
    expect(heardOf(menu)).toBeUndefined();
    expect(heardOf(menu.slice(0, 10))).toBeDefined();
  });
});
