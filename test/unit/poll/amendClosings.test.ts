// Pins the phase that amends the summaries already sent: this cycle's after-closing order events for one
// establishment and date gathered into one prep_changed, recorded and remembered (what the kitchen heard,
// for the next one's "from"); recorded twice, the log refuses the copy; nothing without after-closing
// events, for a summary recorded before heard totals were kept, or for events in time.
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../shared/api/schemas.js';
import { diffOrder } from '../../../shared/detect/diffOrder.js';
import { type PrepSummaries, prepSummaryKey } from '../../../shared/detect/planPrepSummaries.js';
import type { Snapshot } from '../../../shared/detect/snapshot.js';
import { type AmendInput, amendClosings } from '../../../shared/poll/amendClosings.js';
import { UnexpectedCycleError } from '../../../shared/poll/errors.js';
import {
  type CycleFixture,
  cycleFixture,
  establishmentsCache,
  mainCanteen,
  snapshotsOf,
  TODAY,
} from '../../support/cycleFixture.js';
import {
  diffContext,
  laterOrder,
  ORGANIZATION,
  parsedOrder,
  snapshotOf,
} from '../../support/detectFixtures.js';
import { ESTABLISHMENT_UUID, makeOrderItem } from '../../support/orderFactory.js';

/** The canteen closed at 10:30 in Lisbon (UTC in March); its summary went out; the cycle began at 10:40. */
const CLOSES = Date.UTC(2026, 2, 10, 10, 30);
const STARTED = Date.UTC(2026, 2, 10, 10, 40);
const UPDATED = '2026-03-10T10:39:00.000000Z';
const KEY = prepSummaryKey(ESTABLISHMENT_UUID, TODAY);
const CANTEEN = { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' };

/** What the kitchen heard at 10:30: 40 lasagnes, 12 soups. */
const SENT: PrepSummaries = {
  [KEY]: {
    eventId: 'summary-of-today',
    closedAt: CLOSES,
    complete: true,
    items: {
      LAS: { name: 'Lasagne', quantity: 40 },
      SOUP: { name: 'Vegetable soup', quantity: 12 },
    },
  },
};

const lasagnes = (quantity: number) => makeOrderItem({ sku: 'LAS', name: 'Lasagne', quantity });
const soups = (quantity: number) => makeOrderItem({ sku: 'SOUP', name: 'Vegetable soup', quantity });

function pendingToday(items = [soups(1)]): Order {
  return parsedOrder({ pickup_at: TODAY, establishment: { ...CANTEEN }, items });
}

/** One order's change as recordChanges would hand it on: its snapshot before, its sighting, its events. */
function change(before: Order | undefined, after: Order, summarySent = true) {
  const snapshot = before === undefined ? undefined : snapshotOf(before);
  const diff = diffOrder(snapshot, after, diffContext({ summarySent: () => summarySent }));
  return { snapshot, after, events: diff.events };
}

type Change = ReturnType<typeof change>;

async function amend(
  changes: Change[],
  input: Partial<AmendInput> = {},
  fixture?: CycleFixture,
): Promise<CycleFixture & { amended: Awaited<ReturnType<typeof amendClosings>> }> {
  const cycle = fixture ?? (await cycleFixture({ startedAt: STARTED }));
  const amended = await amendClosings(cycle.context, {
    prepSummaries: SENT,
    events: changes.flatMap(({ events }) => events),
    snapshots: snapshotsOf(...changes.flatMap(({ snapshot }) => (snapshot ? [snapshot as Snapshot] : []))),
    observed: new Map(changes.map(({ after }) => [after.uuid, after])),
    establishments: establishmentsCache(STARTED, [mainCanteen()]),
    ...input,
  });
  return { ...cycle, amended };
}

/** A parent adds a lasagne to a pending order, and another order is canceled. */
function lasagneAddedAndOneCanceled(): Change[] {
  const added = pendingToday([soups(1)]);
  const gone = pendingToday([lasagnes(2), soups(1)]);
  return [
    change(added, laterOrder(added, { items: [soups(1), lasagnes(1)], updated_at: UPDATED })),
    change(
      gone,
      laterOrder(gone, {
        status: { label: 'Canceled', value: 'canceled' },
        canceled_at: UPDATED,
        updated_at: UPDATED,
      }),
    ),
  ];
}

describe('amendClosings', () => {
  it('gathers a cycle’s after-closing changes into one prep_changed, records it and remembers what was heard', async () => {
    const changes = lasagneAddedAndOneCanceled();
    const { amended, store } = await amend(changes);
    expect(amended.failures).toEqual([]);
    expect(amended.events).toHaveLength(1);
    const [event] = amended.events;
    expect(event).toMatchObject({
      type: 'establishment.prep_changed',
      subject: ESTABLISHMENT_UUID,
      time: new Date(STARTED).toISOString(),
    });
    expect(event?.data).toEqual({
      organization: { ...ORGANIZATION },
      establishment: CANTEEN,
      pickup_date: TODAY,
      summary_id: 'summary-of-today',
      summary_closed_at: '2026-03-10T10:30:00+00:00',
      items: [
        // One added, two canceled.
        { sku: 'LAS', name: 'Lasagne', from: 40, to: 39 },
        { sku: 'SOUP', name: 'Vegetable soup', from: 12, to: 11 },
      ],
      orders: changes
        .map(({ after }, index) => ({
          uuid: after.uuid,
          reference: after.reference,
          change: index === 0 ? 'updated' : 'canceled',
        }))
        .sort((a, b) => (a.reference < b.reference ? -1 : 1)),
    });
    expect(store.deliveryQueue().map((stored) => stored.event.id)).toEqual([event?.id]);
    expect(amended.prepSummaries).toEqual({
      [KEY]: {
        ...SENT[KEY],
        items: { LAS: { name: 'Lasagne', quantity: 39 }, SOUP: { name: 'Vegetable soup', quantity: 11 } },
      },
    });
  });

  it('returns no event for the same gathering recorded again: the log refuses the copy', async () => {
    const changes = lasagneAddedAndOneCanceled();
    const first = await amend(changes);
    const again = await amend(changes, {}, first);
    expect(again.amended.events).toEqual([]);
    expect(again.amended.prepSummaries).toEqual(first.amended.prepSummaries);
    expect(first.store.deliveryQueue()).toHaveLength(1);
  });

  it('starts the next one from what the last one said', async () => {
    const first = await amend(lasagneAddedAndOneCanceled());
    const order = pendingToday([lasagnes(1)]);
    const second = await amend(
      [change(order, laterOrder(order, { items: [lasagnes(4)], updated_at: UPDATED }))],
      { prepSummaries: first.amended.prepSummaries },
      first,
    );
    expect(second.amended.events[0]?.data.items).toEqual([{ sku: 'LAS', name: 'Lasagne', from: 39, to: 42 }]);
    expect(second.amended.events[0]?.id).not.toBe(first.amended.events[0]?.id);
  });

  it('records nothing, and writes nothing, without after-closing events', async () => {
    const fixture = await cycleFixture({ startedAt: STARTED });
    fixture.store.failNext('recordEvents', new Error('must not be called'));
    const order = pendingToday();
    const inTime = change(order, laterOrder(order, { items: [lasagnes(1)], updated_at: UPDATED }), false);
    const { amended } = await amend([inTime], {}, fixture);
    expect(amended).toEqual({ events: [], failures: [], prepSummaries: SENT });
  });

  it('gives completed and archived orders no amendment: nothing more or less is cooked', async () => {
    const order = pendingToday([lasagnes(1)]);
    const completed = laterOrder(order, {
      status: { label: 'Completed', value: 'completed' },
      completed_at: UPDATED,
      updated_at: UPDATED,
    });
    const { amended, store } = await amend([change(order, completed)]);
    expect(amended.events).toEqual([]);
    expect(store.deliveryQueue()).toEqual([]);
  });

  it('guesses no "from" for a summary recorded before heard totals were kept', async () => {
    const { items: _heard, ...old } = SENT[KEY] ?? { eventId: '', closedAt: 0, complete: true };
    const { amended } = await amend(lasagneAddedAndOneCanceled(), { prepSummaries: { [KEY]: old } });
    expect(amended).toEqual({ events: [], failures: [], prepSummaries: { [KEY]: old } });
  });

  it('counts a new order, and names the establishment by the cache when the orders are elsewhere', async () => {
    const created = pendingToday([lasagnes(3)]);
    const { amended } = await amend([change(undefined, created)], {
      establishments: establishmentsCache(STARTED, [mainCanteen({ name: 'Main canteen (cached)' })]),
    });
    expect(amended.events[0]?.data).toMatchObject({
      establishment: { uuid: ESTABLISHMENT_UUID, name: 'Main canteen (cached)' },
      items: [{ sku: 'LAS', name: 'Lasagne', from: 40, to: 43 }],
      orders: [{ uuid: created.uuid, change: 'created' }],
    });
  });

  it('fails as the bug it is on an amendment whose record makes no time (a RangeError), recording nothing', async () => {
    const broken = { [KEY]: { ...(SENT[KEY] as PrepSummaries[string]), closedAt: Number.NaN } };
    const thrown = await amend(lasagneAddedAndOneCanceled(), { prepSummaries: broken }).catch(
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(UnexpectedCycleError);
    expect((thrown as Error).cause).toBeInstanceOf(RangeError);
    expect((thrown as Error).message).toBe(
      'North School: building an event: unexpected RangeError: Invalid time value',
    );
  });
});
