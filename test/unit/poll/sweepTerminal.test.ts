// Pins the sweep phase: a slice of a terminal listing as big as the sweep's budget, the room left and the
// reservation allow, resumed where the last one stopped; a finished pass dated by when it began; a baseline
// pass walked whole or, when the reservation cannot hold it, deferred; and the pages still owed.
import { describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../../shared/api/schemas.js';
import { type SweepInput, sweepTerminal } from '../../../shared/poll/sweepTerminal.js';
import type { PollState, SweepState } from '../../../shared/store/pollState.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { cycleFixture, MINUTE, T0, TODAY } from '../../support/cycleFixture.js';
import { apiFailures } from '../../support/inMemoryOrdersSource.js';
import { makeOrder } from '../../support/orderFactory.js';

const FRESH: SweepState = { inProgress: null, sweptAt: {}, credit: 0 };
const BEGAN = T0 - 5 * MINUTE;

/** 60 orders of `status` today: three pages. */
function ordersIn(status: OrderStatus, count = 60) {
  return Array.from({ length: count }, () =>
    makeOrder({ pickup_at: TODAY, status: { label: status, value: status } }),
  );
}

/**
 * A cycle that sweeps only `status` (archived: never a baseline; completed: a baseline first), whose
 * listing of 60 orders is known, with `reserved` requests left of its reservation.
 */
async function sweepOf(
  status: 'archived' | 'completed',
  reserved: number,
  options: { available?: number } = {},
) {
  const fixture = await cycleFixture({
    organization: { statuses: ['pending', status] },
    orders: ordersIn(status),
    reserved,
    available: options.available ?? 45,
  });
  const state = (sweep: SweepState): Pick<PollState, 'sweep' | 'listings'> => ({
    sweep,
    listings: { sizes: { [status]: 60 }, walkedAt: {} },
  });
  const run = (sweep: SweepState, input: Partial<SweepInput> = {}) =>
    sweepTerminal(fixture.context, state(sweep), {
      sweepBudget: 1,
      room: 10,
      ahead: 2,
      stopped: false,
      ...input,
    });
  return { ...fixture, run };
}

describe('sweepTerminal', () => {
  it('walks a slice from the first page of the listing swept longest ago, and says where to resume', async () => {
    const { run, source } = await sweepOf('archived', 1);
    const slice = await run(FRESH);
    expect(slice.outcome).toMatchObject({
      walk: { key: 'archived', purpose: 'sweep', fromPage: 1, maxPages: 1 },
      requests: 1,
    });
    expect(slice.sweep).toEqual({
      inProgress: { key: 'archived', nextPage: 2, startedAt: T0 },
      sweptAt: {},
      credit: 0,
    });
    expect(slice.baselineDeferred).toBe(false);
    expect(source.fetched.map((page) => page.page)).toEqual([1]);
  });

  it('resumes the pass in progress, and dates the finished pass by when it began', async () => {
    const { run, source } = await sweepOf('archived', 2);
    const slice = await run(
      { inProgress: { key: 'archived', nextPage: 3, startedAt: BEGAN }, sweptAt: {}, credit: 1 },
      { sweepBudget: 2 },
    );
    expect(source.fetched.map((page) => page.page)).toEqual([3]);
    // Owed 2 pages, walked the last one: 1 still owed.
    expect(slice.sweep).toEqual({ inProgress: null, sweptAt: { archived: BEGAN }, credit: 1 });
  });

  it('walks no more than the room left of what the cycle was planned to cost, owing the rest', async () => {
    const { run } = await sweepOf('archived', 3);
    const slice = await run(FRESH, { sweepBudget: 3, room: 1 });
    expect(slice.outcome?.requests).toBe(1);
    expect(slice.sweep.credit).toBe(2);
  });

  it('walks no more than the reservation holds', async () => {
    const { run } = await sweepOf('archived', 2);
    const slice = await run(FRESH, { sweepBudget: 3, room: 3 });
    expect(slice.outcome?.walk.maxPages).toBe(2);
    expect(slice.sweep).toMatchObject({ inProgress: { nextPage: 3 }, credit: 1 });
  });

  it('walks a fractional budget’s whole pages only, and owes the fraction', async () => {
    const { run } = await sweepOf('archived', 3);
    const slice = await run(FRESH, { sweepBudget: 1.6 });
    expect(slice.outcome?.walk.maxPages).toBe(1);
    expect(slice.sweep.credit).toBeCloseTo(0.6);
  });

  it('owes everything and walks nothing when nothing is left of the reservation', async () => {
    const { run, source } = await sweepOf('archived', 0);
    expect(await run(FRESH, { sweepBudget: 1.5 })).toEqual({
      sweep: { ...FRESH, credit: 1.5 },
      baselineDeferred: false,
    });
    expect(source.requestCount).toBe(0);
  });

  it('owes everything and walks nothing once the cycle has stopped', async () => {
    const { run, source } = await sweepOf('archived', 3);
    const inProgress = { key: 'archived', nextPage: 2, startedAt: BEGAN };
    expect(await run({ inProgress, sweptAt: {}, credit: 0 }, { stopped: true })).toEqual({
      sweep: { inProgress, sweptAt: {}, credit: 1 },
      baselineDeferred: false,
    });
    expect(source.requestCount).toBe(0);
  });

  it('owes everything when no terminal status is announced', async () => {
    const fixture = await cycleFixture({ organization: { statuses: ['pending'] }, reserved: 3 });
    const slice = await sweepTerminal(
      fixture.context,
      { sweep: FRESH, listings: { sizes: {}, walkedAt: {} } },
      { sweepBudget: 2, room: 3, ahead: 2, stopped: false },
    );
    expect(slice).toEqual({ sweep: { ...FRESH, credit: 2 }, baselineDeferred: false });
  });

  it('keeps its place after a failed slice, and owes the rest of what it was owed', async () => {
    const { run, source } = await sweepOf('archived', 2);
    source.failListing({ error: apiFailures.server(503) });
    const inProgress = { key: 'archived', nextPage: 2, startedAt: BEGAN };
    const slice = await run({ inProgress, sweptAt: {}, credit: 0 }, { sweepBudget: 2 });
    expect(slice.outcome?.error).toBeDefined();
    expect(slice.sweep).toEqual({ inProgress, sweptAt: {}, credit: 1 });
  });

  describe('a baseline pass', () => {
    const first = { key: 'completed', nextPage: 1, startedAt: T0, nextDate: TODAY };

    it('walks a listing never swept a pickup date at a time, each whole, and owes back what it overspent', async () => {
      const { run, source } = await sweepOf('completed', 3);
      const slice = await run(FRESH, { sweepBudget: 1, room: 1 });
      expect(slice.outcome).toMatchObject({
        walk: { key: `completed[${TODAY}..${TODAY}]`, maxPages: undefined },
        requests: 3,
      });
      expect(source.fetched.map((page) => page.page)).toEqual([1, 2, 3]);
      // Today read whole: tomorrow is next; 1 page was its share, 3 were spent.
      expect(slice.sweep).toEqual({
        inProgress: { ...first, nextDate: '2026-03-11', dateSize: 60 },
        sweptAt: {},
        credit: -2,
      });
      expect(slice.baselineDeferred).toBe(false);
    });

    it('dates the pass by when it began once its last date is read', async () => {
      const { run } = await sweepOf('completed', 3);
      const inProgress = { key: 'completed', nextPage: 1, startedAt: BEGAN, nextDate: '2026-03-17' };
      const slice = await run({ inProgress, sweptAt: {}, credit: 0 });
      expect(slice.outcome?.requests).toBe(1);
      expect(slice.sweep).toEqual({ inProgress: null, sweptAt: { completed: BEGAN }, credit: 0 });
    });

    it('walks nothing, without a request, when nothing is left of the reservation', async () => {
      const { run, source } = await sweepOf('completed', 0);
      expect(await run(FRESH, { sweepBudget: 2 })).toEqual({
        sweep: { ...FRESH, credit: 2 },
        baselineDeferred: false,
      });
      expect(source.requestCount).toBe(0);
    });

    it('walks the date again next time when a record could not be read', async () => {
      const { run, source } = await sweepOf('completed', 3);
      const [broken] = ordersIn('completed', 1);
      if (!broken) throw new Error('no order');
      source.putRawRecord({ ...broken, total: 'lots' });
      const slice = await run(FRESH);
      expect(slice.outcome?.listing?.complete).toBe(false);
      expect(slice.sweep).toMatchObject({ inProgress: first, sweptAt: {} });
    });

    it('walks the date again next time, at the size its first page told, when it turned out longer than the budget could pay for', async () => {
      // Today holds 90 orders (four pages), and nothing is left beyond the three reserved: the rest cannot
      // be reserved before the second page, so the walk stops there.
      const { run, source } = await sweepOf('completed', 3, { available: 3 });
      source.addOrders(...ordersIn('completed', 30));
      const slice = await run(FRESH);
      expect(slice.outcome?.listing).toMatchObject({ pages: 1, total: 90, stoppedEarly: true });
      expect(slice.sweep.sweptAt).toEqual({});
      // Planned next time at the 90 its first page told, not the guess that fell short again.
      expect(slice.sweep.inProgress).toEqual({ ...first, dateSize: 90 });
      expect(slice.tooLarge).toBeUndefined();
    });

    it('skips, and tells, a date longer than a minute holds beside pending, and goes on to the next', async () => {
      // Today's completed listing grows to five pages where pending and its look-ups take 43 of the 45: no cycle could read
      // it whole.
      const { run, source } = await sweepOf('completed', 3, { available: 3 });
      source.addOrders(...ordersIn('completed', 60));
      const slice = await run(FRESH, { ahead: 43 });
      expect(slice.tooLarge?.message).toMatch(
        /listing completed\[.*\] holds 5 pages, more than the 2 of the token's 45 requests a minute that pending's pages and look-ups leave/,
      );
      expect(slice.sweep.inProgress?.nextDate).toBe(addDays(first.nextDate ?? '', 1));
    });
  });
});
