// Pins how one listing is walked within the budget: deferred without a request when stopped or unaffordable,
// the rest of a walk longer than reserved reserved before its second page or the walk stopped there, a
// slice of at most maxPages, a look-up ended once found; and which failures stop the cycle.
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ForbiddenError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  RequestBudgetExhaustedError,
  ServerError,
  UnauthorizedError,
} from '../../../shared/api/errors.js';
import { InternalError } from '../../../shared/errors/internalError.js';
import { HttpNetworkError } from '../../../shared/http/httpErrors.js';
import { UnexpectedCycleError } from '../../../shared/poll/errors.js';
import { afford, failsEveryListing, stopsCycle, walkListing } from '../../../shared/poll/walkListing.js';
import { StoreThrottledError } from '../../../shared/store/errors.js';
import { CountingBudget } from '../../support/cycleBudgets.js';
import {
  cycleFixture,
  listingOf,
  plannedWalk,
  T0,
  TODAY,
  walkOutcome,
  windowListing,
} from '../../support/cycleFixture.js';
import { apiFailures } from '../../support/inMemoryOrdersSource.js';
import { ESTABLISHMENT_UUID, makeOrder } from '../../support/orderFactory.js';

const CONTEXT = { organization: 'North School', endpoint: 'GET /orders?status=pending' };
/** Three pages of pending today. */
const pendingToday = () => Array.from({ length: 60 }, () => makeOrder({ pickup_at: TODAY }));
/** Three pages of archived today. */
const archivedToday = () =>
  Array.from({ length: 60 }, () =>
    makeOrder({ pickup_at: TODAY, status: { label: 'Archived', value: 'archived' } }),
  );
const pending = plannedWalk();
const archived = plannedWalk(windowListing({ status: 'archived' }));

describe('walkListing', () => {
  it('walks a listing the reservation holds whole, and counts its requests', async () => {
    const { context, source, budget } = await cycleFixture({ orders: pendingToday(), reserved: 3 });
    const outcome = await walkListing(context, pending, { stopped: false });
    expect(outcome).toMatchObject({ walk: pending, deferred: false, requests: 3 });
    expect(outcome.listing).toMatchObject({
      pages: 3,
      total: 60,
      complete: true,
      consistent: true,
      stoppedEarly: false,
    });
    expect(outcome.listing?.records).toHaveLength(60);
    expect(outcome.error).toBeUndefined();
    expect(source.requestCount).toBe(3);
    expect(budget.reserveCalls).toHaveLength(1);
  });

  it('asks the API for the walk’s status, dates and establishment', async () => {
    const { context, source } = await cycleFixture({ reserved: 1 });
    const narrow = windowListing({
      kind: 'narrow',
      status: 'completed',
      endDate: TODAY,
      establishment: ESTABLISHMENT_UUID,
    });
    await walkListing(context, plannedWalk(narrow, { purpose: 'resolve' }), { stopped: false });
    expect(source.fetched.map(({ params, page }) => ({ params, page }))).toEqual([
      {
        params: {
          status: 'completed',
          start_date: TODAY,
          end_date: TODAY,
          establishment: ESTABLISHMENT_UUID,
        },
        page: 1,
      },
    ]);
  });

  it('is not started, without a request or a reservation, once the cycle has stopped, and says why', async () => {
    const { context, source, budget } = await cycleFixture({ orders: pendingToday(), reserved: 3 });
    expect(await walkListing(context, pending, { stopped: true })).toEqual({
      walk: pending,
      deferred: true,
      stopped: true,
      requests: 0,
    });
    expect(source.requestCount).toBe(0);
    expect(budget.reserveCalls).toHaveLength(1);
  });

  it('is deferred without a request when the budget cannot pay for a first page', async () => {
    const { context, source } = await cycleFixture({ orders: pendingToday(), available: 0 });
    expect(await walkListing(context, pending, { stopped: false })).toEqual({
      walk: pending,
      deferred: true,
      requests: 0,
    });
    expect(source.requestCount).toBe(0);
  });

  it('reserves its first page, then the rest of the listing before its second page', async () => {
    const { context, budget } = await cycleFixture({ orders: pendingToday() });
    const outcome = await walkListing(context, pending, { stopped: false });
    expect(outcome.listing).toMatchObject({ pages: 3, stoppedEarly: false });
    expect(budget.reserveCalls).toEqual([
      { atLeast: 1, atMost: 1, granted: 1 },
      { atLeast: 2, atMost: 2, granted: 2 },
    ]);
  });

  it('stops after its first page when the rest of a longer listing cannot be reserved', async () => {
    const { context, source } = await cycleFixture({ orders: pendingToday(), available: 1, reserved: 1 });
    const outcome = await walkListing(context, pending, { stopped: false });
    expect(outcome).toMatchObject({ deferred: false, requests: 1 });
    expect(outcome.listing).toMatchObject({ pages: 1, total: 60, stoppedEarly: true });
    expect(outcome.listing?.records).toHaveLength(25);
    expect(source.requestCount).toBe(1);
  });

  it('walks a slice of at most maxPages pages from the page it resumes at', async () => {
    const { context, source } = await cycleFixture({ orders: archivedToday(), reserved: 5 });
    const outcome = await walkListing(context, { ...archived, fromPage: 2, maxPages: 1 }, { stopped: false });
    expect(outcome.listing).toMatchObject({ fromPage: 2, pages: 1, stoppedEarly: true });
    expect(source.fetched.map((page) => page.page)).toEqual([2]);
  });

  it('ends a slice that reaches the listing’s last page as a walk to the end', async () => {
    const { context } = await cycleFixture({ orders: archivedToday(), reserved: 5 });
    const outcome = await walkListing(context, { ...archived, fromPage: 3, maxPages: 2 }, { stopped: false });
    expect(outcome).toMatchObject({ requests: 1, listing: { fromPage: 3, pages: 1, stoppedEarly: false } });
  });

  it('ends a look-up at the page where what it looks for was found', async () => {
    const orders = archivedToday();
    const sought = orders[3]?.uuid;
    const { context } = await cycleFixture({ orders, reserved: 3 });
    const outcome = await walkListing(context, archived, {
      stopped: false,
      foundEnough: (records) => records.some((record) => record.uuid === sought),
    });
    expect(outcome).toMatchObject({ requests: 1, listing: { pages: 1, stoppedEarly: true } });
  });

  it('keeps a failure as the walk’s error, with the requests it took', async () => {
    const { context, source } = await cycleFixture({ orders: pendingToday(), reserved: 3 });
    source.failListing({ page: 2, error: apiFailures.server(503) });
    const outcome = await walkListing(context, pending, { stopped: false });
    expect(outcome).toMatchObject({ deferred: false, requests: 2 });
    expect(outcome.listing).toBeUndefined();
    expect(outcome.error).toBeInstanceOf(ServerError);
    expect(outcome.error?.message).toContain('page=2');
  });

  it('throws a TypeError met in the walk as the bug it is, never as the walk’s error', async () => {
    const { context, source } = await cycleFixture({ orders: pendingToday(), reserved: 3 });
    const bug = new TypeError("Cannot read properties of undefined (reading 'records')");
    source.failListing({ page: 2, error: bug });
    const thrown = await walkListing(context, pending, { stopped: false }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(UnexpectedCycleError);
    expect(thrown).toBeInstanceOf(InternalError);
    expect((thrown as Error).cause).toBe(bug);
    expect((thrown as Error).message).toBe(
      `North School: listing ${pending.key}: unexpected TypeError: Cannot read properties of undefined (reading 'records')`,
    );
  });

  it('throws a store’s error as it is: the budget’s counter failing is no listing’s failure', async () => {
    const { context, source } = await cycleFixture({ orders: pendingToday(), reserved: 3 });
    const storeFailure = new StoreThrottledError('tryTake', undefined, 'throughput exceeded');
    source.failListing({ error: storeFailure });
    await expect(walkListing(context, pending, { stopped: false })).rejects.toBe(storeFailure);
  });

  it('keeps a transport failure that reached it unmapped as the walk’s error', async () => {
    const { context, source } = await cycleFixture({ orders: pendingToday(), reserved: 3 });
    const cut = new HttpNetworkError({
      origin: 'https://admin.example.test',
      code: 'ECONNRESET',
      detail: 'ECONNRESET',
      cause: undefined,
    });
    source.failListing({ error: cut });
    expect((await walkListing(context, pending, { stopped: false })).error).toBe(cut);
  });
});

describe('afford', () => {
  it('asks for nothing while the reservation holds the pages', async () => {
    const budget = new CountingBudget({ available: 10 });
    await budget.reserve(3, 3);
    expect(await afford(budget, 3)).toBe(true);
    expect(budget.reserveCalls).toHaveLength(1);
  });

  it('reserves exactly what the reservation lacks', async () => {
    const budget = new CountingBudget({ available: 10 });
    await budget.reserve(1, 1);
    expect(await afford(budget, 4)).toBe(true);
    expect(budget.reserveCalls.at(-1)).toEqual({ atLeast: 3, atMost: 3, granted: 3 });
    expect(budget.reserved).toBe(4);
  });

  it('is false when what is lacking is not to be had', async () => {
    const budget = new CountingBudget({ available: 2 });
    expect(await afford(budget, 3)).toBe(false);
    expect(budget.reserved).toBe(0);
  });
});

describe('failsEveryListing', () => {
  it.each([
    ['a rejected token (401)', new UnauthorizedError(CONTEXT)],
    ['a forbidden organization (403)', new ForbiddenError(CONTEXT)],
    ['an unknown organization (404)', new NotFoundError(CONTEXT)],
    ['a bad request (400)', new BadRequestError(CONTEXT)],
    ['an unreachable API', new NetworkError(CONTEXT, new Error('ECONNRESET'))],
    ['an empty budget', new RequestBudgetExhaustedError(CONTEXT, 45, T0 + 60_000)],
  ])('is true for %s', (_name, error) => {
    expect(failsEveryListing(error)).toBe(true);
  });

  it.each([
    ['a server error', new ServerError(CONTEXT, 500)],
    ['a rate limit', new RateLimitedError(CONTEXT, 1_000)],
    ['a malformed page', new MalformedResponseError(CONTEXT, 200, 'data is not an array')],
    ['any other error', new Error('odd')],
  ])('is false for %s: other listings may well answer', (_name, error) => {
    expect(failsEveryListing(error)).toBe(false);
  });
});

describe('stopsCycle', () => {
  it('is true once one walk failed as every listing would', () => {
    expect(
      stopsCycle([
        walkOutcome(pending, { listing: listingOf([]) }),
        walkOutcome(archived, { error: new UnauthorizedError(CONTEXT) }),
      ]),
    ).toBe(true);
  });

  it('is false for walks that succeeded, were deferred, or failed on their own', () => {
    expect(
      stopsCycle([
        walkOutcome(pending, { listing: listingOf([]) }),
        walkOutcome(pending, { deferred: true }),
        walkOutcome(archived, { error: new ServerError(CONTEXT, 503) }),
      ]),
    ).toBe(false);
    expect(stopsCycle([])).toBe(false);
  });
});
