import { describe, expect, it } from 'vitest';
import {
  planResolution,
  type ResolutionPlanInput,
  type VanishedOrder,
} from '../../../shared/detect/planPoll.js';
import { seededRandom } from '../../support/detectFixtures.js';

const ALL = ['pending', 'completed', 'canceled', 'archived'] as const;

function vanished(uuid: string, pickupDate: string, status = 'pending', establishment = 'e1'): VanishedOrder {
  return { uuid, pickupDate, status, establishment };
}

function input(overrides: Partial<ResolutionPlanInput> = {}): ResolutionPlanInput {
  return { vanished: [], statuses: ALL, isCovered: () => false, budget: 50, ...overrides };
}

const keys = (plan: ReturnType<typeof planResolution>) => plan.listings.map((listing) => listing.key);

describe('planResolution', () => {
  it('plans nothing when no order vanished', () => {
    expect(planResolution(input())).toEqual({ listings: [], deferred: [], estimatedRequests: 0 });
  });

  it('plans one narrow listing per other status on the order pickup date', () => {
    const plan = planResolution(input({ vanished: [vanished('o1', '2026-03-06')] }));
    expect(plan.listings).toEqual([
      {
        key: 'completed:2026-03-06',
        status: 'completed',
        startDate: '2026-03-06',
        endDate: '2026-03-06',
        establishment: undefined,
        estimatedRequests: 1,
      },
      {
        key: 'canceled:2026-03-06',
        status: 'canceled',
        startDate: '2026-03-06',
        endDate: '2026-03-06',
        establishment: undefined,
        estimatedRequests: 1,
      },
      {
        key: 'archived:2026-03-06',
        status: 'archived',
        startDate: '2026-03-06',
        endDate: '2026-03-06',
        establishment: undefined,
        estimatedRequests: 1,
      },
    ]);
    expect(plan.estimatedRequests).toBe(3);
  });

  it('skips the status the order had when it was last seen', () => {
    const plan = planResolution(input({ vanished: [vanished('o1', '2026-03-06', 'completed')] }));
    expect(keys(plan)).toEqual(['pending:2026-03-06', 'canceled:2026-03-06', 'archived:2026-03-06']);
  });

  it('skips statuses already covered by a complete listing this cycle', () => {
    const covered: Array<[string, string]> = [];
    const plan = planResolution(
      input({
        vanished: [vanished('o1', '2026-03-06')],
        isCovered: (status, order) => {
          covered.push([status, order.uuid]);
          return status === 'canceled';
        },
      }),
    );
    expect(keys(plan)).toEqual(['completed:2026-03-06', 'archived:2026-03-06']);
    expect(covered).toContainEqual(['canceled', 'o1']);
  });

  it('asks only about the watched statuses', () => {
    const plan = planResolution(
      input({ vanished: [vanished('o1', '2026-03-06')], statuses: ['pending', 'canceled'] }),
    );
    expect(keys(plan)).toEqual(['canceled:2026-03-06']);
  });

  it('shares one listing between orders with the same pickup date', () => {
    const plan = planResolution(
      input({
        vanished: [vanished('o1', '2026-03-06'), vanished('o2', '2026-03-06', 'pending', 'e2')],
        statuses: ['pending', 'canceled'],
      }),
    );
    expect(keys(plan)).toEqual(['canceled:2026-03-06']);
    expect(plan.estimatedRequests).toBe(1);
  });

  it('still plans a date listing that one order of that date needs though another is covered', () => {
    const plan = planResolution(
      input({
        vanished: [
          vanished('o1', '2026-03-06', 'pending', 'e1'),
          vanished('o2', '2026-03-06', 'pending', 'e2'),
        ],
        statuses: ['pending', 'canceled'],
        isCovered: (_status, order) => order.establishment === 'e1',
      }),
    );
    expect(keys(plan)).toEqual(['canceled:2026-03-06']);
  });

  it('plans the earliest pickup dates first and defers the rest beyond the budget', () => {
    const plan = planResolution(
      input({
        vanished: [vanished('o3', '2026-03-09'), vanished('o1', '2026-02-28'), vanished('o2', '2026-03-06')],
        statuses: ['pending', 'canceled'],
        budget: 2,
      }),
    );
    expect(keys(plan)).toEqual(['canceled:2026-02-28', 'canceled:2026-03-06']);
    expect(plan.deferred).toEqual(['canceled:2026-03-09']);
    expect(plan.estimatedRequests).toBe(2);
  });

  it('plans nothing with no budget left', () => {
    const plan = planResolution(input({ vanished: [vanished('o1', '2026-03-06')], budget: 0 }));
    expect(plan.listings).toEqual([]);
    expect(plan.deferred).toHaveLength(3);
  });

  it('never exceeds the budget and never asks twice (seeded random inputs)', () => {
    const random = seededRandom(42);
    for (let round = 0; round < 1_000; round += 1) {
      const orders = Array.from({ length: random.int(0, 30) }, (_, i) =>
        vanished(
          `o${i}`,
          `2026-03-${String(random.int(1, 9)).padStart(2, '0')}`,
          ALL[random.int(0, 3)],
          `e${random.int(1, 3)}`,
        ),
      );
      const budget = random.int(0, 20);
      const plan = planResolution(
        input({ vanished: orders, budget, isCovered: (status) => status === 'archived' && round % 2 === 0 }),
      );
      const context = `round ${round}, budget ${budget}`;
      expect(plan.estimatedRequests, context).toBeLessThanOrEqual(budget);
      expect(plan.listings.length, context).toBe(plan.estimatedRequests);
      expect(new Set(keys(plan)).size, context).toBe(plan.listings.length);
      const dates = plan.listings.map((l) => l.startDate);
      expect(dates, context).toEqual([...dates].sort());
      if (round % 2 === 0)
        expect(
          plan.listings.some((l) => l.status === 'archived'),
          context,
        ).toBe(false);
      // Every listing could hold one of the vanished orders in a status other than its last known one.
      for (const listing of plan.listings) {
        expect(
          orders.some((o) => o.pickupDate === listing.startDate && o.status !== listing.status),
          context,
        ).toBe(true);
      }
    }
  });
});
