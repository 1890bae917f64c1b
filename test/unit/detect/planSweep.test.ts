import { describe, expect, it } from 'vitest';
import {
  planSweep,
  type SweepPlanInput,
  sweepListings,
  sweepPages,
} from '../../../shared/detect/planSweep.js';

const EST_A = 'e5a1b2c3-0000-4000-8000-00000000000a';
const EST_B = 'e5a1b2c3-0000-4000-8000-00000000000b';
const NOW = 1_795_000_000_000;

function input(overrides: Partial<SweepPlanInput> = {}): SweepPlanInput {
  return {
    statuses: ['pending', 'completed', 'canceled', 'archived'],
    startDate: '2026-11-13',
    endDate: '2026-11-27',
    establishments: undefined,
    progress: null,
    sweptAt: {},
    knownSizes: {},
    pages: 5,
    now: NOW,
    ...overrides,
  };
}

describe('sweepListings', () => {
  it('sweeps only the watched terminal statuses, never pending', () => {
    const listings = sweepListings(input({ statuses: ['pending', 'completed', 'canceled'] }));
    expect(listings.map((listing) => listing.status)).toEqual(['completed', 'canceled']);
  });

  it('sweeps each watched terminal status over the whole window', () => {
    expect(sweepListings(input({ statuses: ['archived'] }))).toEqual([
      {
        kind: 'window',
        status: 'archived',
        startDate: '2026-11-13',
        endDate: '2026-11-27',
        establishment: undefined,
      },
    ]);
  });

  it('sweeps each status once per configured establishment', () => {
    const listings = sweepListings(
      input({ statuses: ['completed', 'canceled'], establishments: [EST_A, EST_B] }),
    );
    expect(listings.map((listing) => [listing.status, listing.establishment])).toEqual([
      ['completed', EST_A],
      ['completed', EST_B],
      ['canceled', EST_A],
      ['canceled', EST_B],
    ]);
  });
});

describe('planSweep', () => {
  it('plans nothing when only pending is watched', () => {
    expect(planSweep(input({ statuses: ['pending'] }))).toBeUndefined();
  });

  it('plans nothing when the cycle has no whole page for the sweep', () => {
    expect(planSweep(input({ pages: 0 }))).toBeUndefined();
    expect(planSweep(input({ pages: 0.9 }))).toBeUndefined();
  });

  it('resumes a sweep in progress at its next page, keeping when it began', () => {
    const progress = { key: 'canceled', nextPage: 3, startedAt: NOW - 60_000 };
    const plan = planSweep(input({ progress, knownSizes: { canceled: 200 }, pages: 4 }));
    expect(plan).toEqual({
      walk: {
        listing: {
          kind: 'window',
          status: 'canceled',
          startDate: '2026-11-13',
          endDate: '2026-11-27',
          establishment: undefined,
        },
        key: 'canceled',
        purpose: 'sweep',
        fromPage: 3,
        maxPages: 4,
        estimatedRequests: 4,
      },
      progress,
    });
  });

  it('resumes the listing in progress even when another was swept longer ago', () => {
    const progress = { key: 'completed', nextPage: 2, startedAt: NOW - 60_000 };
    const plan = planSweep(input({ progress, sweptAt: { completed: NOW - 1_000, canceled: NOW - 999_999 } }));
    expect(plan?.walk.key).toBe('completed');
  });

  it('takes no more pages than the cycle gives, whole pages only', () => {
    const progress = { key: 'completed', nextPage: 1, startedAt: NOW };
    const plan = planSweep(input({ progress, knownSizes: { completed: 1_000 }, pages: 3.7 }));
    expect(plan?.walk.maxPages).toBe(3);
    expect(plan?.walk.estimatedRequests).toBe(3);
  });

  it('takes no more pages than are left of the listing', () => {
    // 200 orders are 8 pages; from page 7, two are left.
    const progress = { key: 'completed', nextPage: 7, startedAt: NOW };
    const plan = planSweep(input({ progress, knownSizes: { completed: 200 }, pages: 5 }));
    expect(plan?.walk).toMatchObject({ fromPage: 7, maxPages: 2, estimatedRequests: 2 });
  });

  it('still takes one page when the sweep is past the listing’s known end, so that it can finish', () => {
    // The listing shrank to one page since the sweep began on it; page 3 shows it ended.
    const progress = { key: 'completed', nextPage: 3, startedAt: NOW };
    const plan = planSweep(input({ progress, knownSizes: { completed: 10 }, pages: 5 }));
    expect(plan?.walk).toMatchObject({ fromPage: 3, maxPages: 1, estimatedRequests: 1 });
  });

  it('starts on the listing swept longest ago when none is in progress', () => {
    const plan = planSweep(
      input({ sweptAt: { completed: NOW - 1_000, canceled: NOW - 5_000, archived: NOW - 3_000 }, pages: 2 }),
    );
    expect(plan?.walk.key).toBe('canceled');
    expect(plan?.walk.fromPage).toBe(1);
    expect(plan?.progress).toEqual({ key: 'canceled', nextPage: 1, startedAt: NOW });
  });

  it('starts on a listing never swept before those swept already', () => {
    const plan = planSweep(input({ sweptAt: { completed: NOW - 1_000, canceled: NOW - 5_000 } }));
    expect(plan?.walk.key).toBe('archived');
  });

  it('starts afresh when the listing in progress is no longer swept', () => {
    const plan = planSweep(
      input({
        statuses: ['completed', 'canceled'],
        progress: { key: 'archived', nextPage: 4, startedAt: NOW - 60_000 },
        sweptAt: { completed: NOW - 1_000, canceled: NOW - 5_000 },
      }),
    );
    expect(plan?.walk).toMatchObject({ key: 'canceled', fromPage: 1 });
    expect(plan?.progress).toEqual({ key: 'canceled', nextPage: 1, startedAt: NOW });
  });

  it('keeps within the pages given and what is left, for any progress', () => {
    for (let size = 0; size <= 130; size += 13) {
      const listingPages = Math.max(1, Math.ceil(size / 25));
      for (let nextPage = 1; nextPage <= listingPages; nextPage += 1) {
        for (const pages of [1, 2, 3, 7.5]) {
          const progress = { key: 'completed', nextPage, startedAt: NOW };
          const walk = planSweep(input({ progress, knownSizes: { completed: size }, pages }))?.walk;
          const context = JSON.stringify({ size, nextPage, pages });
          expect(walk?.fromPage, context).toBe(nextPage);
          expect(walk?.maxPages, context).toBeLessThanOrEqual(Math.floor(pages));
          expect(walk?.maxPages, context).toBeLessThanOrEqual(listingPages - nextPage + 1);
          expect(walk?.maxPages, context).toBeGreaterThanOrEqual(1);
        }
      }
    }
  });
});

describe('sweepPages', () => {
  it('sums the pages of every swept listing from its known size', () => {
    // completed 60 orders = 3 pages, canceled empty = 1, archived unknown = 1; pending is not swept.
    expect(sweepPages(input({ knownSizes: { pending: 500, completed: 60, canceled: 0 } }))).toBe(5);
  });

  it('sums per establishment when establishments are listed apart', () => {
    const pages = sweepPages(
      input({
        statuses: ['completed'],
        establishments: [EST_A, EST_B],
        knownSizes: { [`completed@${EST_A}`]: 26, [`completed@${EST_B}`]: 51, completed: 1_000 },
      }),
    );
    expect(pages).toBe(5);
  });

  it('is zero when no terminal status is watched', () => {
    expect(sweepPages(input({ statuses: ['pending'] }))).toBe(0);
  });
});
