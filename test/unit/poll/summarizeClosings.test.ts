// Pins the prep summary phase: a closing passed with this cycle's complete pending walk gives one complete
// summary of the pending orders, recorded and remembered; recorded twice, the log refuses the copy; late
// ones incomplete with why; summaries of dates before the window forgotten; nothing without establishments.
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../shared/api/schemas.js';
import type { Coverage } from '../../../shared/detect/coverage.js';
import { PREP_SUMMARY_GRACE_MS, prepSummaryKey } from '../../../shared/detect/planPrepSummaries.js';
import type { Snapshot } from '../../../shared/detect/snapshot.js';
import type { PrepSummaryEvent } from '../../../shared/events/prepSummaryEvent.js';
import type { PolledOrganization } from '../../../shared/poll/cycleContext.js';
import { type ClosingsInput, summarizeClosings } from '../../../shared/poll/summarizeClosings.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import {
  type CycleFixture,
  cycleFixture,
  establishmentsCache,
  mainCanteen,
  snapshotsOf,
  T0,
  TODAY,
} from '../../support/cycleFixture.js';
import { parsedOrder, snapshotOf } from '../../support/detectFixtures.js';
import { ESTABLISHMENT_UUID, makeEstablishment } from '../../support/orderFactory.js';

/** The canteen closes at 10:30 in Lisbon (UTC in March); the cycle began half a minute later. */
const CLOSES = Date.UTC(2026, 2, 10, 10, 30);
const STARTED = CLOSES + 30_000;
const KEY = prepSummaryKey(ESTABLISHMENT_UUID, TODAY);
const canteen = mainCanteen();
const hall = makeEstablishment({ name: 'Sports hall' });
const CANTEEN = { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' };

/** This cycle walked today's pending whole; watching since 06:00. */
const coveredNow = (at = STARTED): Coverage => ({ pendingCoveredAt: { [TODAY]: at }, watchingSince: T0 });
const observed = (...orders: Order[]) => new Map(orders.map((order) => [order.uuid, order]));
const pendingToday = () => parsedOrder({ pickup_at: TODAY, establishment: { ...CANTEEN } });

async function summarize(
  input: Partial<ClosingsInput> = {},
  options: { startedAt?: number; organization?: Partial<PolledOrganization>; fixture?: CycleFixture } = {},
) {
  const fixture =
    options.fixture ??
    (await cycleFixture({
      startedAt: options.startedAt ?? STARTED,
      ...(options.organization ? { organization: options.organization } : {}),
    }));
  const startedAt = fixture.context.startedAt;
  const closings = await summarizeClosings(fixture.context, {
    prepSummaries: {},
    establishments: establishmentsCache(startedAt - 60_000, [canteen, hall]),
    coverage: coveredNow(startedAt),
    shortfall: undefined,
    observed: new Map(),
    snapshots: new Map(),
    ...input,
  });
  return { ...fixture, closings };
}

describe('summarizeClosings', () => {
  it('records one complete summary of the day’s pending orders at a passed closing, and remembers it', async () => {
    const counted = [pendingToday(), pendingToday()];
    const others = [
      parsedOrder({
        pickup_at: TODAY,
        establishment: { ...CANTEEN },
        status: { label: 'Completed', value: 'completed' },
      }),
      parsedOrder({ pickup_at: addDays(TODAY, 1), establishment: { ...CANTEEN } }),
      parsedOrder({ pickup_at: TODAY, establishment: { uuid: hall.uuid, name: hall.name } }),
    ];
    const { closings, store } = await summarize({ observed: observed(...counted, ...others) });
    // The hall closes at 10:30 too: a summary each, the canteen's of two orders.
    const byName = new Map(closings.events.map((event) => [event.data.establishment.name, event]));
    expect(byName.get('Main canteen')?.data).toMatchObject({
      establishment: CANTEEN,
      pickup_date: TODAY,
      closed_at: '2026-03-10T10:30:00+00:00',
      orders: 2,
      canceled_before_closing: 0,
      complete: true,
    });
    expect(byName.get('Sports hall')?.data.orders).toBe(1);
    const canteenEvent = byName.get('Main canteen') as PrepSummaryEvent;
    expect(closings.prepSummaries[KEY]).toEqual({
      eventId: canteenEvent.id,
      closedAt: CLOSES,
      complete: true,
      // What the kitchen heard: the "from" of the day's prep_changed events.
      items: { 'SOUP-01': { name: 'Vegetable soup', quantity: 2 } },
    });
    expect(Object.keys(closings.prepSummaries)).toHaveLength(2);
    expect(closings.failures).toEqual([]);
    expect(
      store
        .deliveryQueue()
        .map((stored) => stored.event.id)
        .sort(),
    ).toEqual(closings.events.map((event) => event.id).sort());
  });

  it("flags the day's notes with the organization's own highlight words", async () => {
    const noted = parsedOrder({ pickup_at: TODAY, establishment: { ...CANTEEN }, notes: 'Sem glúten' });
    const { closings } = await summarize(
      { observed: observed(noted, pendingToday()) },
      { organization: { highlightWords: ['gluten'] } },
    );
    const canteenSummary = closings.events.find((event) => event.data.establishment.uuid === CANTEEN.uuid);
    expect(canteenSummary?.data.notes).toEqual([
      { reference: noted.reference, class: noted.customer.class, note: 'Sem glúten', flagged: true },
    ]);
  });

  it('returns no event for a summary recorded again after a crash: the log refuses the copy', async () => {
    const first = await summarize({ observed: observed(pendingToday()) });
    // The state was not saved: the next cycle finds the same closings due, with the same ids.
    const again = await summarize({ observed: observed(pendingToday()) }, { fixture: first });
    expect(again.closings.events).toEqual([]);
    expect(again.closings.prepSummaries).toEqual(first.closings.prepSummaries);
    expect(first.store.deliveryQueue()).toHaveLength(2);
  });

  it('records nothing, and writes nothing, for a closing already remembered', async () => {
    const first = await summarize({ establishments: establishmentsCache(STARTED, [canteen]) });
    first.store.failNext('recordEvents', new Error('must not be called'));
    const again = await summarize(
      {
        establishments: establishmentsCache(STARTED, [canteen]),
        prepSummaries: first.closings.prepSummaries,
      },
      { fixture: first },
    );
    expect(again.closings).toEqual({ events: [], failures: [], prepSummaries: first.closings.prepSummaries });
  });

  it('records nothing before the closing', async () => {
    const { closings, store } = await summarize({}, { startedAt: CLOSES - 1 });
    expect(closings.events).toEqual([]);
    expect(store.deliveryQueue()).toEqual([]);
  });

  it('records nothing while the establishments are not known, and still forgets old summaries', async () => {
    const old = {
      [prepSummaryKey(ESTABLISHMENT_UUID, addDays(TODAY, -1))]: {
        eventId: 'e-0',
        closedAt: CLOSES - 86_400_000,
        complete: true,
      },
    };
    const { closings, store } = await summarize({ establishments: null, prepSummaries: old });
    expect(closings).toEqual({ events: [], failures: [], prepSummaries: {} });
    expect(store.deliveryQueue()).toEqual([]);
  });

  it('forgets the summaries of dates before the window, and keeps the rest', async () => {
    const kept = { eventId: 'e-1', closedAt: CLOSES, complete: true };
    const prepSummaries = {
      [prepSummaryKey(ESTABLISHMENT_UUID, addDays(TODAY, -1))]: { ...kept, eventId: 'e-0' },
      [KEY]: kept,
    };
    const { closings } = await summarize({
      establishments: establishmentsCache(STARTED, [canteen]),
      prepSummaries,
    });
    expect(closings.prepSummaries).toEqual({ [KEY]: kept });
  });

  it('counts nothing from an earlier cycle’s walk, and waits out the grace for a walk of its own', async () => {
    const { closings } = await summarize({
      coverage: coveredNow(CLOSES + 10_000),
      shortfall: 'listing pending failed (HTTP 503)',
    });
    expect(closings.events).toEqual([]);
  });

  it('records the summary incomplete after the grace, saying why and how it was counted', async () => {
    const late = CLOSES + PREP_SUMMARY_GRACE_MS + 30_000;
    const { closings } = await summarize(
      {
        establishments: establishmentsCache(late, [canteen]),
        coverage: coveredNow(CLOSES + 10_000),
        shortfall: 'listing pending failed (HTTP 503)',
        observed: observed(pendingToday()),
      },
      { startedAt: late },
    );
    expect(closings.events.map((event) => event.data)).toEqual([
      expect.objectContaining({
        orders: 1,
        complete: false,
        incomplete_reason:
          'the pending listing could not be walked completely within 5 minutes of closing: listing pending failed (HTTP 503); counted from the pending orders this cycle saw',
      }),
    ]);
    expect(closings.prepSummaries[KEY]?.complete).toBe(false);
  });

  it('counts the orders canceled before closing, from what this cycle saw and what the snapshots remember', async () => {
    const canceled = (at: string) =>
      parsedOrder({
        pickup_at: TODAY,
        establishment: { ...CANTEEN },
        status: { label: 'Canceled', value: 'canceled' },
        canceled_at: at,
      });
    const seenNow = canceled('2026-03-10T10:00:00.000000Z');
    const remembered: Snapshot = snapshotOf(canceled('2026-03-10T09:00:00.000000Z'));
    const afterClosing = canceled('2026-03-10T10:30:10.000000Z');
    const { closings } = await summarize({
      establishments: establishmentsCache(STARTED, [canteen]),
      observed: observed(pendingToday(), seenNow, afterClosing),
      snapshots: snapshotsOf(remembered),
    });
    expect(closings.events[0]?.data).toMatchObject({ orders: 1, canceled_before_closing: 2 });
  });

  it('looks back at yesterday’s closing only while the window still holds yesterday', async () => {
    const watchedSinceMonday: Coverage = {
      pendingCoveredAt: { [TODAY]: STARTED },
      watchingSince: CLOSES - 86_400_000 - 60_000,
    };
    const dates = async (daysBack: number) =>
      (
        await summarize(
          { establishments: establishmentsCache(STARTED, [canteen]), coverage: watchedSinceMonday },
          { organization: { window: { daysBack, daysAhead: 7 } } },
        )
      ).closings.events.map((event) => [event.data.pickup_date, event.data.complete]);
    expect(await dates(0)).toEqual([[TODAY, true]]);
    expect(await dates(1)).toEqual([
      [addDays(TODAY, -1), false],
      [TODAY, true],
    ]);
  });

  it('sums up only the establishments polled, from their own coverage', async () => {
    const { closings } = await summarize(
      { coverage: { pendingCoveredAt: { [`${TODAY}@${hall.uuid}`]: STARTED }, watchingSince: T0 } },
      { organization: { establishments: [hall.uuid] } },
    );
    expect(closings.events.map((event) => [event.data.establishment.name, event.data.complete])).toEqual([
      ['Sports hall', true],
    ]);
  });
});
