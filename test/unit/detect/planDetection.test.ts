import { describe, expect, it } from 'vitest';
import { pagesFor } from '../../../shared/detect/listingSpec.js';
import { type DetectionPlanInput, planDetection, windowDates } from '../../../shared/detect/planDetection.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { seededRandom } from '../../support/detectFixtures.js';

const EST_A = 'e5a1b2c3-0000-4000-8000-00000000000a';
const EST_B = 'e5a1b2c3-0000-4000-8000-00000000000b';
const EST_C = 'e5a1b2c3-0000-4000-8000-00000000000c';

// today 2026-11-20, one day back and three ahead: 2026-11-19 .. 2026-11-23 (five pickup dates).
const TODAY = '2026-11-20';
const WINDOW = { daysBack: 1, daysAhead: 3 };
const START = '2026-11-19';
const END = '2026-11-23';

function input(overrides: Partial<DetectionPlanInput> = {}): DetectionPlanInput {
  return {
    today: TODAY,
    window: WINDOW,
    establishments: undefined,
    knownSizes: {},
    pendingByDate: new Map(),
    lastWalkedAt: {},
    maxWalkPages: 25,
    // Every date walked before: the orders known there are all there are.
    coveredAt: () => 0,
    ...overrides,
  };
}

/** Pending orders per pickup date, all at one establishment. */
function byDate(counts: Record<string, number>, establishment = EST_A): Map<string, Map<string, number>> {
  return new Map(Object.entries(counts).map(([date, n]) => [date, new Map([[establishment, n]])]));
}

function datesOf(startDate: string, endDate: string): string[] {
  const dates: string[] = [];
  for (let date = startDate; date <= endDate; date = addDays(date, 1)) dates.push(date);
  return dates;
}

describe('windowDates', () => {
  it('spans daysBack before today to daysAhead after it', () => {
    expect(windowDates(TODAY, WINDOW)).toEqual({ startDate: START, endDate: END });
  });
});

describe('planDetection: a window that fits one walk', () => {
  it('plans one pending walk of the whole window', () => {
    const plan = planDetection(input({ knownSizes: { pending: 40 } }));
    expect(plan).toEqual([
      {
        listing: {
          kind: 'window',
          status: 'pending',
          startDate: START,
          endDate: END,
          establishment: undefined,
        },
        key: 'pending',
        purpose: 'detect',
        fromPage: 1,
        maxPages: undefined,
        estimatedRequests: 2,
      },
    ]);
  });

  it('keeps the window whole when its pages equal maxWalkPages exactly', () => {
    const plan = planDetection(input({ knownSizes: { pending: 50 }, maxWalkPages: 2 }));
    expect(plan.map((walk) => walk.listing.kind)).toEqual(['window']);
    expect(plan[0]?.estimatedRequests).toBe(2);
  });

  it('plans one walk per configured establishment', () => {
    const plan = planDetection(
      input({
        establishments: [EST_A, EST_B],
        knownSizes: { [`pending@${EST_A}`]: 10, [`pending@${EST_B}`]: 30 },
      }),
    );
    expect(plan.map((walk) => [walk.key, walk.listing.establishment, walk.estimatedRequests])).toEqual([
      [`pending@${EST_A}`, EST_A, 1],
      [`pending@${EST_B}`, EST_B, 2],
    ]);
    expect(plan.every((walk) => walk.listing.kind === 'window')).toBe(true);
  });

  it('sizes a walk from the pending orders it knows of, not knownSizes, once any is known', () => {
    const larger = planDetection(
      input({ knownSizes: { pending: 30 }, pendingByDate: byDate({ '2026-11-20': 100 }) }),
    );
    expect(larger.map((walk) => walk.estimatedRequests)).toEqual([4]);
    const smaller = planDetection(
      input({ knownSizes: { pending: 100 }, pendingByDate: byDate({ '2026-11-20': 10 }) }),
    );
    expect(smaller.map((walk) => walk.estimatedRequests)).toEqual([1]);
  });

  it('sizes a walk from knownSizes while no pending order is known at all', () => {
    const plan = planDetection(input({ knownSizes: { pending: 60 } }));
    expect(plan.map((walk) => walk.estimatedRequests)).toEqual([3]);
  });

  it('sizes every establishment’s walk from the pending orders once any is known, even one with none', () => {
    const plan = planDetection(
      input({
        establishments: [EST_A, EST_B],
        knownSizes: { [`pending@${EST_A}`]: 10, [`pending@${EST_B}`]: 60 },
        pendingByDate: byDate({ '2026-11-20': 30 }, EST_A),
      }),
    );
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      [`pending@${EST_A}`, 2],
      [`pending@${EST_B}`, 1],
    ]);
  });

  it('sizes a walk from the pending orders per date when the listing size is unknown', () => {
    const plan = planDetection(input({ pendingByDate: byDate({ '2026-11-19': 30, '2026-11-22': 31 }) }));
    expect(plan.map((walk) => walk.estimatedRequests)).toEqual([3]);
  });

  it('counts only its own establishment’s pending orders for a per-establishment walk', () => {
    const pendingByDate = new Map([
      [
        '2026-11-20',
        new Map([
          [EST_A, 60],
          [EST_B, 10],
        ]),
      ],
    ]);
    const plan = planDetection(input({ establishments: [EST_A, EST_B], pendingByDate }));
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      [`pending@${EST_A}`, 3],
      [`pending@${EST_B}`, 1],
    ]);
  });

  it('estimates one request for a window with nothing known of it', () => {
    expect(planDetection(input()).map((walk) => walk.estimatedRequests)).toEqual([1]);
  });
});

describe('planDetection: a window larger than one walk', () => {
  it('splits it into consecutive date parts, each within maxWalkPages', () => {
    // 30 + 15 = 45 fits two pages; adding 30 would take three, so the first part ends on the 20th.
    const plan = planDetection(
      input({
        maxWalkPages: 2,
        pendingByDate: byDate({
          '2026-11-19': 30,
          '2026-11-20': 15,
          '2026-11-21': 30,
          '2026-11-22': 10,
          '2026-11-23': 5,
        }),
      }),
    );
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      ['pending[2026-11-19..2026-11-20]', 2],
      ['pending[2026-11-21..2026-11-23]', 2],
    ]);
    expect(plan.every((walk) => walk.listing.kind === 'part' && walk.purpose === 'detect')).toBe(true);
  });

  it('splits when the pending orders it knows of say the window is too large, whatever knownSizes says', () => {
    const plan = planDetection(
      input({
        maxWalkPages: 2,
        knownSizes: { pending: 10 },
        pendingByDate: byDate({ '2026-11-19': 40, '2026-11-21': 40 }),
      }),
    );
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      ['pending[2026-11-19..2026-11-20]', 2],
      ['pending[2026-11-21..2026-11-23]', 2],
    ]);
  });

  it('sizes a part from the pending orders in it, or from what its own first page announced when more, never past a walk', () => {
    // A walk cut short after its first page never reads the day's new orders, at the listing's end: the
    // count would stay as it was, and the part would be planned too short to finish again and again. Only a
    // date's own first page may say it is too long for any walk: a part's size is held to one walk.
    const plan = (announced: number) =>
      planDetection(
        input({
          maxWalkPages: 10,
          knownSizes: { 'pending[2026-11-19..2026-11-20]': 0, 'pending[2026-11-21..2026-11-23]': announced },
          pendingByDate: byDate({ '2026-11-19': 140, '2026-11-21': 140 }),
        }),
      ).map((walk) => [walk.key, walk.estimatedRequests]);
    expect(plan(200)).toEqual([
      ['pending[2026-11-19..2026-11-20]', 6],
      ['pending[2026-11-21..2026-11-23]', 8],
    ]);
    expect(plan(1000)).toEqual([
      ['pending[2026-11-19..2026-11-20]', 6],
      ['pending[2026-11-21..2026-11-23]', 10],
    ]);
  });

  it('sizes a date by the orders held once a part holding it was walked whole after its own last walk', () => {
    // Walked alone at 500 orders, since walked whole within a part: it holds 20 now.
    const plan = planDetection(
      input({
        maxWalkPages: 2,
        knownSizes: { 'pending[2026-11-19..2026-11-19]': 500 },
        lastWalkedAt: { 'pending[2026-11-19..2026-11-19]': 1_000 },
        coveredAt: () => 2_000,
        pendingByDate: byDate({ '2026-11-19': 20, '2026-11-20': 20, '2026-11-22': 40 }),
      }),
    );
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      ['pending[2026-11-19..2026-11-21]', 2],
      ['pending[2026-11-22..2026-11-23]', 2],
    ]);
  });

  it('makes a single date larger than the bound a part of its own', () => {
    const plan = planDetection(
      input({
        maxWalkPages: 2,
        pendingByDate: byDate({ '2026-11-19': 10, '2026-11-20': 80, '2026-11-21': 10 }),
      }),
    );
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      ['pending[2026-11-19..2026-11-19]', 1],
      ['pending[2026-11-20..2026-11-20]', 4],
      ['pending[2026-11-21..2026-11-23]', 1],
    ]);
  });

  it('makes the first date of the window a part of its own when it alone is larger than the bound', () => {
    const plan = planDetection(
      input({ maxWalkPages: 2, pendingByDate: byDate({ '2026-11-19': 80, '2026-11-20': 10 }) }),
    );
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      ['pending[2026-11-19..2026-11-19]', 4],
      ['pending[2026-11-20..2026-11-23]', 1],
    ]);
  });

  it('makes the last date of the window a part of its own when it alone is larger than the bound', () => {
    const plan = planDetection(
      input({ maxWalkPages: 2, pendingByDate: byDate({ '2026-11-19': 10, '2026-11-23': 80 }) }),
    );
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      ['pending[2026-11-19..2026-11-22]', 1],
      ['pending[2026-11-23..2026-11-23]', 4],
    ]);
  });

  it('splits only the establishment whose window is too large', () => {
    const pendingByDate = new Map([
      [
        '2026-11-19',
        new Map([
          [EST_A, 40],
          [EST_B, 5],
        ]),
      ],
      ['2026-11-22', new Map([[EST_A, 40]])],
    ]);
    // B's listing walked whole after A's dates were: A's parts first.
    const lastWalkedAt = { [`pending@${EST_B}`]: 1_000 };
    const plan = planDetection(
      input({ establishments: [EST_A, EST_B], maxWalkPages: 2, pendingByDate, lastWalkedAt }),
    );
    expect(plan.map((walk) => walk.key)).toEqual([
      `pending[2026-11-19..2026-11-21]@${EST_A}`,
      `pending[2026-11-22..2026-11-23]@${EST_A}`,
      `pending@${EST_B}`,
    ]);
  });

  it('covers every date of the window exactly once, in order, for any counts and bound', () => {
    const random = seededRandom(20261120);
    const window = { daysBack: 3, daysAhead: 10 };
    const { startDate, endDate } = windowDates(TODAY, window);
    const allDates = datesOf(startDate, endDate);
    for (let trial = 0; trial < 200; trial += 1) {
      const counts: Record<string, number> = {};
      for (const date of allDates) if (random.next() < 0.8) counts[date] = random.int(0, 70);
      const maxWalkPages = random.int(1, 5);
      const plan = planDetection(input({ window, maxWalkPages, pendingByDate: byDate(counts) }));
      const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
      const context = { trial, counts, maxWalkPages };

      if (pagesFor(total) <= maxWalkPages) {
        expect(
          plan.map((walk) => walk.listing.kind),
          JSON.stringify(context),
        ).toEqual(['window']);
        continue;
      }
      const walked = plan.flatMap((walk) => datesOf(walk.listing.startDate, walk.listing.endDate));
      expect(walked, JSON.stringify(context)).toEqual(allDates);
      for (const walk of plan) {
        const { startDate: from, endDate: to } = walk.listing;
        expect(from <= to, JSON.stringify({ ...context, from, to })).toBe(true);
        const inPart = datesOf(from, to).reduce((sum, date) => sum + (counts[date] ?? 0), 0);
        expect(walk.listing.kind).toBe('part');
        expect(walk.estimatedRequests).toBe(pagesFor(inPart));
        if (from !== to)
          expect(walk.estimatedRequests, JSON.stringify(context)).toBeLessThanOrEqual(maxWalkPages);
      }
    }
  });
});

describe('planDetection: a window too large to have been walked whole', () => {
  // 1,558 pending announced by the window's first page, the only page a walk of 63 could read.
  const announced = { pending: 1558 };
  const week = ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'];

  it('sizes it by what its first page announced while its dates were never walked, not by that page', () => {
    const plan = planDetection(
      input({
        maxWalkPages: 22,
        knownSizes: announced,
        pendingByDate: byDate({ '2026-11-19': 25 }),
        coveredAt: () => undefined,
      }),
    );
    // Cut by the dates, each taking its share of the 1,558: 312 a date, 13 pages, one date a part.
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual(
      week.map((date) => [`pending[${date}..${date}]`, 13]),
    );
  });

  it('gives the dates never walked what the announced size leaves once some were', () => {
    const walked = new Set(['2026-11-19', '2026-11-20']);
    const plan = planDetection(
      input({
        maxWalkPages: 22,
        knownSizes: announced,
        pendingByDate: byDate({ '2026-11-19': 400, '2026-11-20': 10 }),
        coveredAt: (date) => (walked.has(date) ? 0 : undefined),
      }),
    );
    // The 1,148 left over the three others: 383 each, 16 pages; never walked, they come first.
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([
      ...week.slice(2).map((date) => [`pending[${date}..${date}]`, 16]),
      ['pending[2026-11-19..2026-11-20]', 17],
    ]);
  });

  it('trusts the orders it knows of once every date was walked', () => {
    const plan = planDetection(
      input({ maxWalkPages: 22, knownSizes: announced, pendingByDate: byDate({ '2026-11-19': 300 }) }),
    );
    expect(plan.map((walk) => [walk.key, walk.estimatedRequests])).toEqual([['pending', 12]]);
  });
});

describe('planDetection: order of the walks', () => {
  it('puts the longest-unwalked first, never-walked before all', () => {
    const plan = planDetection(
      input({
        establishments: [EST_A, EST_B, EST_C],
        lastWalkedAt: { [`pending@${EST_A}`]: 3_000, [`pending@${EST_B}`]: 1_000 },
      }),
    );
    expect(plan.map((walk) => walk.key)).toEqual([
      `pending@${EST_C}`,
      `pending@${EST_B}`,
      `pending@${EST_A}`,
    ]);
  });

  it('orders date parts by when their dates were last walked, whatever parts they were walked in', () => {
    const plan = planDetection(
      input({
        maxWalkPages: 2,
        pendingByDate: byDate({ '2026-11-19': 40, '2026-11-21': 40 }),
        // The part keys' own times are of parts cut otherwise since: the dates' coverage decides.
        lastWalkedAt: { 'pending[2026-11-19..2026-11-20]': 1_000, 'pending[2026-11-21..2026-11-23]': 9_000 },
        coveredAt: (date) => (date <= '2026-11-20' ? 5_000 : date === '2026-11-22' ? 2_000 : 6_000),
      }),
    );
    expect(plan.map((walk) => walk.key)).toEqual([
      'pending[2026-11-21..2026-11-23]',
      'pending[2026-11-19..2026-11-20]',
    ]);
  });
});
