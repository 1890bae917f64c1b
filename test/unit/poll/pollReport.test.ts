// Pins the notes the phases give the report: one listing line per walk started, a failure line per failed
// walk (in the caller's words when it gives them), problems, what was deferred; and why pending fell short.
import { beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, ServerError } from '../../../shared/api/errors.js';
import type { ListingProblem } from '../../../shared/api/listingProblem.js';
import {
  apiUnreachable,
  type CycleNotes,
  joinNotes,
  NO_NOTES,
  notesOfWalks,
  pendingShortfall,
} from '../../../shared/poll/pollReport.js';
import type { WalkOutcome } from '../../../shared/poll/walkListing.js';
import {
  cycleFixture,
  LAST_DAY,
  listingOf,
  plannedWalk,
  TODAY,
  walkOutcome,
  windowListing,
} from '../../support/cycleFixture.js';
import { parsedOrder } from '../../support/detectFixtures.js';

const pending = plannedWalk();
const completed = plannedWalk(windowListing({ status: 'completed' }));
const skipped: ListingProblem = {
  kind: 'skipped_record',
  listing: 'pending',
  page: 1,
  detail: 'record #2 on the page: bad total',
};
const serverError = () =>
  new ServerError({ organization: 'North School', endpoint: 'GET /orders?status=pending' }, 503);

describe('notesOfWalks', () => {
  it('reports a walked listing with its bounds, orders, pages and whether it can be trusted', async () => {
    const { context } = await cycleFixture();
    const orders = [parsedOrder(), parsedOrder()];
    const notes = notesOfWalks(context, [walkOutcome(pending, { listing: listingOf(orders) })]);
    expect(notes).toEqual({
      listings: [
        {
          key: 'pending',
          purpose: 'detect',
          status: 'pending',
          startDate: TODAY,
          endDate: LAST_DAY,
          trustworthy: true,
          orders: 2,
          pages: 1,
        },
      ],
      failures: [],
      problems: [],
      deferred: [],
    });
  });

  it('passes on a listing’s problems and marks it untrustworthy, without a failure', async () => {
    const { context } = await cycleFixture();
    const notes = notesOfWalks(context, [
      walkOutcome(pending, { listing: listingOf([], { complete: false, problems: [skipped] }) }),
    ]);
    expect(notes.listings[0]?.trustworthy).toBe(false);
    expect(notes.problems).toEqual([skipped]);
    expect(notes.failures).toEqual([]);
  });

  it('lists a walk that was not started as deferred only', async () => {
    const { context } = await cycleFixture();
    expect(notesOfWalks(context, [walkOutcome(pending, { deferred: true })])).toEqual({
      ...NO_NOTES,
      deferred: ['pending'],
    });
  });

  it("does not call a walk the cycle's failure stopped deferred for budget: the failure explains it", async () => {
    const { context } = await cycleFixture();
    const notes = notesOfWalks(context, [
      walkOutcome(pending, { error: serverError() }),
      walkOutcome(completed, { deferred: true, stopped: true }),
    ]);
    expect(notes.deferred).toEqual([]);
    expect(notes.failures).toHaveLength(1);
  });

  it('defers the rest of a pending walk cut short, but not of a sweep slice', async () => {
    const { context } = await cycleFixture();
    const notes = notesOfWalks(context, [
      walkOutcome(pending, { listing: listingOf([], { stoppedEarly: true }) }),
      walkOutcome(completed, { listing: listingOf([], { stoppedEarly: true }) }),
    ]);
    expect(notes.deferred).toEqual(['pending']);
    expect(notes.listings.map((listing) => listing.key)).toEqual(['pending', 'completed']);
  });

  it('reports a failed walk with its error and one failure line in the error’s own words', async () => {
    const { context } = await cycleFixture();
    const error = serverError();
    const notes = notesOfWalks(context, [walkOutcome(pending, { error })]);
    expect(notes.listings).toEqual([
      expect.objectContaining({
        key: 'pending',
        trustworthy: false,
        orders: 0,
        pages: 0,
        error: error.message,
      }),
    ]);
    expect(notes.failures).toEqual([error.message]);
  });

  it('words a failure as describeFailure says, when given', async () => {
    const { context } = await cycleFixture({
      deps: { describeFailure: (error) => `North School (org 1): ${error.message}` },
    });
    const error = serverError();
    expect(notesOfWalks(context, [walkOutcome(pending, { error })]).failures).toEqual([
      `North School (org 1): ${error.message}`,
    ]);
  });

  it('names the organization and the listing for a walk that gave neither listing nor error', async () => {
    const { context } = await cycleFixture();
    const notes = notesOfWalks(context, [{ walk: pending, deferred: false, requests: 0 }]);
    expect(notes.failures).toEqual(['North School: listing pending failed']);
    expect(notes.listings[0]?.error).toBe('failed');
  });
});

describe('joinNotes', () => {
  it('puts the phases’ notes one after the other, in the order given', () => {
    const first: CycleNotes = { listings: [], failures: ['a'], problems: [skipped], deferred: ['pending'] };
    const second: CycleNotes = { listings: [], failures: ['b'], problems: [], deferred: ['establishments'] };
    expect(joinNotes(first, NO_NOTES, second)).toEqual({
      listings: [],
      failures: ['a', 'b'],
      problems: [skipped],
      deferred: ['pending', 'establishments'],
    });
  });
});

describe('pendingShortfall', () => {
  let note: (walk: WalkOutcome) => CycleNotes;
  beforeAll(async () => {
    const { context } = await cycleFixture();
    note = (walk) => notesOfWalks(context, [walk]);
  });

  it('is undefined when every pending listing was walked whole', () => {
    expect(pendingShortfall(note(walkOutcome(pending, { listing: listingOf([]) })))).toBeUndefined();
  });

  it('names a failed pending listing and its error, before any other reason', () => {
    const notes = joinNotes(
      note(
        walkOutcome(plannedWalk(windowListing({ establishment: 'x' })), {
          listing: listingOf([], { consistent: false }),
        }),
      ),
      note(walkOutcome(pending, { error: new Error('HTTP 503') })),
    );
    expect(pendingShortfall(notes)).toBe('listing pending failed (HTTP 503)');
  });

  it('names a pending listing that was not walked whole and consistently', () => {
    expect(
      pendingShortfall(note(walkOutcome(pending, { listing: listingOf([], { stoppedEarly: true }) }))),
    ).toBe('listing pending was not walked whole and consistently');
  });

  it('blames the budget when a pending walk was deferred', () => {
    expect(pendingShortfall(note(walkOutcome(pending, { deferred: true })))).toBe(
      'the request budget did not stretch to it',
    );
  });

  it('ignores the sweep and the establishments: they are not pending', () => {
    const notes = joinNotes(
      note(walkOutcome(completed, { error: new Error('HTTP 503') })),
      note(walkOutcome(completed, { listing: listingOf([], { stoppedEarly: true }) })),
      { ...NO_NOTES, deferred: ['establishments'] },
    );
    expect(pendingShortfall(notes)).toBeUndefined();
  });
});

describe('apiUnreachable', () => {
  const refused = () =>
    new NetworkError(
      { organization: 'North School', endpoint: 'GET /orders?status=pending' },
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    );

  it('holds when every walk started found the API unreachable, and the rest were stopped', () => {
    expect(
      apiUnreachable([
        walkOutcome(pending, { error: refused() }),
        walkOutcome(completed, { deferred: true, stopped: true }),
      ]),
    ).toBe(true);
  });

  it('does not hold when the API answered, even with an error, or when nothing was started', () => {
    expect(apiUnreachable([walkOutcome(pending, { error: serverError() })])).toBe(false);
    expect(
      apiUnreachable([
        walkOutcome(pending, { listing: listingOf([]) }),
        walkOutcome(completed, { error: refused() }),
      ]),
    ).toBe(false);
    expect(apiUnreachable([walkOutcome(pending, { deferred: true })])).toBe(false);
  });
});
