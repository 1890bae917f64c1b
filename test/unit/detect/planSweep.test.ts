import { describe, expect, it } from 'vitest';
import type { ListingSpec } from '../../../shared/detect/listingSpec.js';
import {
  isBaselinePass,
  planSweep,
  type SweepPlanInput,
  sweepListings,
  sweepPages,
} from '../../../shared/detect/planSweep.js';

const EST_A = 'e5a1b2c3-0000-4000-8000-00000000000a';
const EST_B = 'e5a1b2c3-0000-4000-8000-00000000000b';
const NOW = 1_795_000_000_000;
/** Every terminal listing's baseline pass done, long ago: each is read page by page. */
const SWEPT = { completed: NOW - 900_000, canceled: NOW - 900_000, archived: NOW - 900_000 };

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

  it('plans nothing when the cycle has no whole page for a pass that is not a baseline', () => {
    expect(planSweep(input({ sweptAt: SWEPT, pages: 0 }))).toBeUndefined();
    expect(planSweep(input({ sweptAt: SWEPT, pages: 0.9 }))).toBeUndefined();
  });

  it('resumes a sweep in progress at its next page, keeping when it began', () => {
    const progress = { key: 'canceled', nextPage: 3, startedAt: NOW - 60_000 };
    const plan = planSweep(input({ progress, sweptAt: SWEPT, knownSizes: { canceled: 200 }, pages: 4 }));
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
    expect(plan?.walk.fromPage).toBe(2);
  });

  it('takes no more pages than the cycle gives, whole pages only', () => {
    const progress = { key: 'completed', nextPage: 1, startedAt: NOW };
    const plan = planSweep(input({ progress, sweptAt: SWEPT, knownSizes: { completed: 1_000 }, pages: 3.7 }));
    expect(plan?.walk.maxPages).toBe(3);
    expect(plan?.walk.estimatedRequests).toBe(3);
  });

  it('takes every page the cycle gives, even past what is left of the listing: the walk ends at its last page', () => {
    // 200 orders are 8 pages; from page 7, two are left, but the listing may have grown since.
    const progress = { key: 'completed', nextPage: 7, startedAt: NOW };
    const plan = planSweep(input({ progress, sweptAt: SWEPT, knownSizes: { completed: 200 }, pages: 5 }));
    expect(plan?.walk).toMatchObject({ fromPage: 7, maxPages: 5, estimatedRequests: 5 });
  });

  it('still plans the walk when the sweep is past the listing’s known end, so that it can finish', () => {
    // The listing shrank to one page since the sweep began on it; page 3 shows it ended.
    const progress = { key: 'completed', nextPage: 3, startedAt: NOW };
    const plan = planSweep(input({ progress, sweptAt: SWEPT, knownSizes: { completed: 10 }, pages: 5 }));
    expect(plan?.walk).toMatchObject({ key: 'completed', fromPage: 3, maxPages: 5 });
    expect(plan?.progress).toEqual(progress);
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

  it('reads the whole pages given from the page it resumes at, for any progress', () => {
    for (let size = 0; size <= 130; size += 13) {
      const listingPages = Math.max(1, Math.ceil(size / 25));
      for (let nextPage = 1; nextPage <= listingPages + 1; nextPage += 1) {
        for (const pages of [1, 2, 3, 7.5]) {
          const progress = { key: 'completed', nextPage, startedAt: NOW };
          const walk = planSweep(
            input({ progress, sweptAt: SWEPT, knownSizes: { completed: size }, pages }),
          )?.walk;
          const context = JSON.stringify({ size, nextPage, pages });
          expect(walk?.fromPage, context).toBe(nextPage);
          expect(walk?.maxPages, context).toBe(Math.floor(pages));
          expect(walk?.estimatedRequests, context).toBe(Math.floor(pages));
        }
      }
    }
  });

  describe('the baseline pass', () => {
    const day = (date: string) => ({
      kind: 'part',
      status: 'completed',
      startDate: date,
      endDate: date,
      establishment: undefined,
    });

    it('walks the first pass over completed a pickup date at a time, each date whole, from the first', () => {
      const plan = planSweep(input({ statuses: ['completed'], knownSizes: { completed: 300 }, pages: 3 }));
      expect(plan).toEqual({
        walk: {
          listing: day('2026-11-13'),
          key: 'completed[2026-11-13..2026-11-13]',
          purpose: 'sweep',
          fromPage: 1,
          maxPages: undefined,
          // 300 orders over 15 days: 20 a day, one page.
          estimatedRequests: 1,
        },
        progress: { key: 'completed', nextPage: 1, startedAt: NOW, nextDate: '2026-11-13' },
      });
    });

    it('resumes at the date its progress names, keeping the pass its start', () => {
      const progress = { key: 'completed', nextPage: 1, startedAt: NOW - 60_000, nextDate: '2026-11-20' };
      const plan = planSweep(input({ statuses: ['completed'], progress, pages: 2 }));
      expect(plan?.walk).toMatchObject({ listing: day('2026-11-20'), maxPages: undefined });
      expect(plan?.progress).toEqual(progress);
    });

    it('starts at the window when the date it stopped at has left it', () => {
      const progress = { key: 'completed', nextPage: 1, startedAt: NOW - 60_000, nextDate: '2026-11-01' };
      const plan = planSweep(input({ statuses: ['completed'], progress, pages: 2 }));
      expect(plan?.walk.listing).toEqual(day('2026-11-13'));
    });

    it('walks the first pass over canceled by date too', () => {
      const plan = planSweep(input({ statuses: ['canceled'], pages: 1 }));
      expect(plan?.walk).toMatchObject({
        key: 'canceled[2026-11-13..2026-11-13]',
        fromPage: 1,
        maxPages: undefined,
        estimatedRequests: 1,
      });
    });

    it('starts a baseline afresh, from the first date, when a paged pass over it was in progress', () => {
      const progress = { key: 'completed', nextPage: 3, startedAt: NOW - 60_000 };
      const plan = planSweep(
        input({ progress, sweptAt: { canceled: NOW - 1_000 }, knownSizes: { completed: 100 }, pages: 2 }),
      );
      expect(plan?.walk).toMatchObject({ listing: day('2026-11-13'), fromPage: 1, maxPages: undefined });
      expect(plan?.progress).toEqual({
        key: 'completed',
        nextPage: 1,
        startedAt: NOW,
        nextDate: '2026-11-13',
      });
    });

    it('waits for a cycle that may spend a page: a start does not spend the minute on the sweep', () => {
      expect(planSweep(input({ statuses: ['completed'], knownSizes: { completed: 60 }, pages: 0.5 }))).toBe(
        undefined,
      );
    });

    it('is a baseline pass per establishment, for each listing not swept yet', () => {
      const plan = planSweep(
        input({
          statuses: ['completed'],
          establishments: [EST_A, EST_B],
          sweptAt: { [`completed@${EST_A}`]: NOW - 1_000, completed: NOW - 1_000 },
          knownSizes: { [`completed@${EST_B}`]: 600 },
        }),
      );
      expect(plan?.walk).toMatchObject({
        key: `completed[2026-11-13..2026-11-13]@${EST_B}`,
        maxPages: undefined,
        estimatedRequests: 2,
      });
    });

    it('reads completed page by page once a pass over it is done', () => {
      const plan = planSweep(
        input({
          statuses: ['completed'],
          sweptAt: { completed: NOW - 1_000 },
          knownSizes: { completed: 200 },
        }),
      );
      expect(plan?.walk).toMatchObject({ fromPage: 1, maxPages: 5, estimatedRequests: 5 });
    });

    it('never walks archived as a baseline: its first pass is read page by page too', () => {
      const plan = planSweep(input({ statuses: ['archived'], knownSizes: { archived: 500 }, pages: 3 }));
      expect(plan?.walk).toMatchObject({ key: 'archived', fromPage: 1, maxPages: 3, estimatedRequests: 3 });
      expect(plan?.progress).toEqual({ key: 'archived', nextPage: 1, startedAt: NOW });
    });
  });
});

describe('isBaselinePass', () => {
  const listing = (status: 'completed' | 'canceled' | 'archived', establishment?: string): ListingSpec => ({
    kind: 'window',
    status,
    startDate: '2026-11-13',
    endDate: '2026-11-27',
    establishment,
  });

  it('is the next pass over completed or canceled until one pass over it is done', () => {
    expect(isBaselinePass(listing('completed'), {})).toBe(true);
    expect(isBaselinePass(listing('canceled'), { completed: NOW })).toBe(true);
    expect(isBaselinePass(listing('completed'), { completed: NOW })).toBe(false);
    expect(isBaselinePass(listing('canceled'), { canceled: NOW })).toBe(false);
  });

  it('is never a pass over archived, which only gains orders', () => {
    expect(isBaselinePass(listing('archived'), {})).toBe(false);
    expect(isBaselinePass(listing('archived', EST_A), {})).toBe(false);
  });

  it('goes by the listing’s own key, per establishment', () => {
    expect(isBaselinePass(listing('completed', EST_A), { completed: NOW })).toBe(true);
    expect(isBaselinePass(listing('completed', EST_A), { [`completed@${EST_A}`]: NOW })).toBe(false);
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
