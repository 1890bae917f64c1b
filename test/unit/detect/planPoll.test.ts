import { describe, expect, it } from 'vitest';
import {
  listingKey,
  type PollPlanInput,
  pagesFor,
  planPoll,
  windowDates,
} from '../../../shared/detect/planPoll.js';
import { seededRandom } from '../../support/detectFixtures.js';

const ALL = ['pending', 'completed', 'canceled', 'archived'] as const;

function input(overrides: Partial<PollPlanInput> = {}): PollPlanInput {
  return {
    today: '2026-03-05',
    window: { daysBack: 0, daysAhead: 7 },
    statuses: ALL,
    establishments: undefined,
    listingSizes: {},
    lastFetchedAt: {},
    budget: 50,
    ...overrides,
  };
}

const keys = (plan: ReturnType<typeof planPoll>) => plan.listings.map((listing) => listing.key);

describe('windowDates', () => {
  it('spans daysBack before today to daysAhead after it', () => {
    expect(windowDates('2026-03-05', { daysBack: 2, daysAhead: 7 })).toEqual({
      startDate: '2026-03-03',
      endDate: '2026-03-12',
    });
  });

  it('starts today when daysBack is 0, and is one day when daysAhead is 0 too', () => {
    expect(windowDates('2026-03-05', { daysBack: 0, daysAhead: 0 })).toEqual({
      startDate: '2026-03-05',
      endDate: '2026-03-05',
    });
  });

  it('crosses month ends both ways', () => {
    expect(windowDates('2026-01-31', { daysBack: 0, daysAhead: 1 }).endDate).toBe('2026-02-01');
    expect(windowDates('2026-03-01', { daysBack: 1, daysAhead: 0 }).startDate).toBe('2026-02-28');
    expect(windowDates('2028-03-01', { daysBack: 1, daysAhead: 0 }).startDate).toBe('2028-02-29');
  });

  it('crosses the year end both ways', () => {
    expect(windowDates('2026-12-30', { daysBack: 0, daysAhead: 7 })).toEqual({
      startDate: '2026-12-30',
      endDate: '2027-01-06',
    });
    expect(windowDates('2027-01-02', { daysBack: 3, daysAhead: 0 }).startDate).toBe('2026-12-30');
  });

  it('puts the window dates on every planned listing', () => {
    const plan = planPoll(input({ today: '2026-12-31', window: { daysBack: 1, daysAhead: 2 } }));
    for (const listing of plan.listings) {
      expect(listing.startDate).toBe('2026-12-30');
      expect(listing.endDate).toBe('2027-01-02');
    }
  });
});

describe('pagesFor', () => {
  it('is ceil(size / 25) with a minimum of 1', () => {
    expect(pagesFor(undefined)).toBe(1);
    expect(pagesFor(0)).toBe(1);
    expect(pagesFor(1)).toBe(1);
    expect(pagesFor(25)).toBe(1);
    expect(pagesFor(26)).toBe(2);
    expect(pagesFor(50)).toBe(2);
    expect(pagesFor(51)).toBe(3);
    expect(pagesFor(1000)).toBe(40);
  });
});

describe('planPoll', () => {
  it('plans every status when the budget allows, pending first', () => {
    const plan = planPoll(input({ lastFetchedAt: { pending: 5, completed: 1, canceled: 2, archived: 3 } }));
    expect(keys(plan)[0]).toBe('pending');
    expect(new Set(keys(plan))).toEqual(new Set(ALL));
    expect(plan.deferred).toEqual([]);
    expect(plan.estimatedRequests).toBe(4);
  });

  it('puts pending first even when it was fetched more recently than anything else', () => {
    const plan = planPoll(
      input({
        statuses: ['archived', 'completed', 'pending'],
        lastFetchedAt: { pending: 9_999, archived: 1 },
      }),
    );
    expect(keys(plan)[0]).toBe('pending');
  });

  it('estimates each listing from its last known size', () => {
    const plan = planPoll(input({ listingSizes: { pending: 60, completed: 25, canceled: 0 } }));
    const estimates = Object.fromEntries(plan.listings.map((l) => [l.key, l.estimatedRequests]));
    expect(estimates).toEqual({ pending: 3, completed: 1, canceled: 1, archived: 1 });
    expect(plan.estimatedRequests).toBe(6);
  });

  it('plans plain status listings over the whole window when establishments are not split', () => {
    const [listing] = planPoll(input({ statuses: ['pending'] })).listings;
    expect(listing).toEqual({
      key: 'pending',
      status: 'pending',
      startDate: '2026-03-05',
      endDate: '2026-03-12',
      establishment: undefined,
      estimatedRequests: 1,
    });
  });

  it('with a tight budget, chooses other statuses by staleness: never fetched first, then oldest', () => {
    const plan = planPoll(
      input({
        statuses: ['pending', 'completed', 'canceled', 'archived'],
        lastFetchedAt: { pending: 100, completed: 3_000, archived: 1_000 },
        budget: 3,
      }),
    );
    expect(keys(plan)).toEqual(['pending', 'canceled', 'archived']);
    expect(plan.deferred).toEqual(['completed']);
  });

  it('orders the other statuses by lastFetchedAt, oldest first', () => {
    const plan = planPoll(
      input({ lastFetchedAt: { pending: 0, completed: 300, canceled: 100, archived: 200 }, budget: 50 }),
    );
    expect(keys(plan)).toEqual(['pending', 'canceled', 'archived', 'completed']);
  });

  it('defers a stale listing too big for what is left whole, and still fits a smaller one after it', () => {
    const plan = planPoll(
      input({
        listingSizes: { completed: 100 },
        lastFetchedAt: { completed: 1, canceled: 2, archived: 3 },
        budget: 3,
      }),
    );
    expect(keys(plan)).toEqual(['pending', 'canceled', 'archived']);
    expect(plan.deferred).toEqual(['completed']);
  });

  it('plans nothing else when the pending listings do not fit', () => {
    const plan = planPoll(input({ listingSizes: { pending: 100 }, budget: 3 }));
    expect(plan.listings).toEqual([]);
    expect(plan.estimatedRequests).toBe(0);
    expect(new Set(plan.deferred)).toEqual(new Set(ALL));
  });

  it('plans nothing at all with no budget', () => {
    const plan = planPoll(input({ budget: 0 }));
    expect(plan.listings).toEqual([]);
    expect(plan.deferred).toHaveLength(4);
  });

  it('plans exactly the pending listing when the budget is exactly its size', () => {
    const plan = planPoll(input({ listingSizes: { pending: 75 }, budget: 3 }));
    expect(keys(plan)).toEqual(['pending']);
    expect(plan.estimatedRequests).toBe(3);
  });

  it('plans one listing per status and establishment, keyed status@establishment', () => {
    const plan = planPoll(input({ statuses: ['pending', 'completed'], establishments: ['e1', 'e2'] }));
    expect(keys(plan)).toEqual(['pending@e1', 'pending@e2', 'completed@e1', 'completed@e2']);
    expect(plan.listings.map((l) => l.establishment)).toEqual(['e1', 'e2', 'e1', 'e2']);
    expect(listingKey('completed', 'e2')).toBe('completed@e2');
    expect(listingKey('completed', undefined)).toBe('completed');
  });

  it('reads sizes and staleness per establishment key', () => {
    const plan = planPoll(
      input({
        statuses: ['pending', 'completed'],
        establishments: ['e1', 'e2'],
        listingSizes: { 'pending@e1': 30 },
        lastFetchedAt: { 'completed@e1': 10 },
        budget: 4,
      }),
    );
    expect(plan.listings.find((l) => l.key === 'pending@e1')?.estimatedRequests).toBe(2);
    // completed@e2 was never fetched, so it goes before completed@e1.
    expect(keys(plan)).toEqual(['pending@e1', 'pending@e2', 'completed@e2']);
    expect(plan.deferred).toEqual(['completed@e1']);
  });

  it('defers every other status when one establishment pending listing does not fit', () => {
    const plan = planPoll(
      input({
        statuses: ['pending', 'completed'],
        establishments: ['e1', 'e2'],
        listingSizes: { 'pending@e2': 200 },
        budget: 5,
      }),
    );
    expect(keys(plan)).toEqual(['pending@e1']);
    expect(new Set(plan.deferred)).toEqual(new Set(['pending@e2', 'completed@e1', 'completed@e2']));
  });

  it('never exceeds the budget, and accounts for every listing once (seeded random inputs)', () => {
    const random = seededRandom(20260305);
    for (let round = 0; round < 2_000; round += 1) {
      const statuses = ALL.filter((status) => status === 'pending' || random.next() < 0.7);
      const establishments =
        random.next() < 0.5 ? undefined : Array.from({ length: random.int(1, 4) }, (_, i) => `e${i}`);
      const allKeys = statuses.flatMap((s) => (establishments ?? [undefined]).map((e) => listingKey(s, e)));
      const listingSizes: Record<string, number> = {};
      const lastFetchedAt: Record<string, number> = {};
      for (const key of allKeys) {
        if (random.next() < 0.8) listingSizes[key] = random.int(0, 400);
        if (random.next() < 0.7) lastFetchedAt[key] = random.int(0, 1_000_000);
      }
      const budget = random.int(0, 60);
      const plan = planPoll(input({ statuses, establishments, listingSizes, lastFetchedAt, budget }));
      const context = `round ${round}, budget ${budget}`;

      const sum = plan.listings.reduce((total, l) => total + l.estimatedRequests, 0);
      expect(sum, context).toBeLessThanOrEqual(budget);
      expect(plan.estimatedRequests, context).toBe(sum);
      for (const listing of plan.listings) {
        expect(listing.estimatedRequests, context).toBe(pagesFor(listingSizes[listing.key]));
      }
      // Planned and deferred partition the candidate listings.
      expect([...keys(plan), ...plan.deferred].sort(), context).toEqual([...allKeys].sort());
      // Pending listings come before any other status.
      const firstOther = plan.listings.findIndex((l) => l.status !== 'pending');
      const lastPending = plan.listings.map((l) => l.status).lastIndexOf('pending');
      if (firstOther !== -1) expect(lastPending, context).toBeLessThan(firstOther);
      // Other statuses never take requests a pending listing was waiting for.
      if (plan.deferred.some((key) => key.startsWith('pending'))) {
        expect(
          plan.listings.every((l) => l.status === 'pending'),
          context,
        ).toBe(true);
      }
      // Nothing is deferred that would still have fitted.
      const left = budget - sum;
      const pendingDeferred = plan.deferred.some((key) => key.startsWith('pending'));
      for (const key of plan.deferred) {
        if (!pendingDeferred || key.startsWith('pending')) {
          expect(pagesFor(listingSizes[key]), `${context}, ${key}`).toBeGreaterThan(left);
        }
      }
    }
  });
});
