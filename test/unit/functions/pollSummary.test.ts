// The poll cycle's log summary and EMF metrics: PollSucceeded is published for a cycle that polled only
// (1 when it went well, 0 when a listing failed), never for one deferred for want of budget or skipped for
// another run's lease, so the "not polled successfully" alarm sees those minutes as missing data; and
// ListingProblems, for a cycle that polled, once for the deployment, without the organization.
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publishPollMetrics, summarizePoll } from '../../../functions/poller/pollSummary.js';
import type { PollReport } from '../../../shared/poll/pollOrganization.js';
import { captureOutput } from '../../support/captureOutput.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';
import { pollReport } from '../cli/pollReportFixture.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function publish(report: PollReport): Record<string, unknown>[] {
  const output = captureOutput();
  publishPollMetrics(new Metrics({ namespace: 'MealOrderNotifier', serviceName: 'poller' }), report);
  vi.restoreAllMocks();
  return output.emf();
}

describe('publishPollMetrics', () => {
  it('publishes PollSucceeded 1 and the cycle figures for a cycle that polled without a failure', () => {
    const [, blob] = publish(pollReport({ ok: true, requests: 12, budgetRemaining: 30, ordersSeen: 90 }));
    expect(blob).toMatchObject({
      PollSucceeded: 1,
      RequestsUsed: 12,
      BudgetRemaining: 30,
      OrdersSeen: 90,
      EventsEmitted: 0,
    });
  });

  it('publishes PollSucceeded 0 for a cycle that polled and failed', () => {
    const [, blob] = publish(pollReport({ ok: false, failures: ['North School: 503'] }));
    expect(blob).toMatchObject({ PollSucceeded: 0 });
  });

  it('publishes no PollSucceeded, nor orders seen, for a deferred cycle: it neither succeeded nor failed', () => {
    const [blob] = publish(pollReport({ outcome: 'deferred', requests: 0, budgetRemaining: 0 }));
    expect(blob).toMatchObject({ RequestsUsed: 0, BudgetRemaining: 0 });
    expect(blob).not.toHaveProperty('PollSucceeded');
    expect(blob).not.toHaveProperty('OrdersSeen');
  });

  it('publishes the listing problems of a cycle that polled as one metric of the deployment, without the organization', () => {
    const problem = {
      kind: 'skipped_record',
      listing: 'pending',
      page: 1,
      detail: 'total: invalid',
    } as const;
    const [listingProblems, organizationBlob] = publish(
      pollReport({ problems: [problem, problem, problem] }),
    );
    expect(listingProblems).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: 'MealOrderNotifier',
            Dimensions: [['service']],
            Metrics: [{ Name: 'ListingProblems', Unit: 'Count' }],
          },
        ],
      },
      service: 'poller',
      ListingProblems: 3,
    });
    expect(organizationBlob).toMatchObject({ Organization: ORGANIZATION.id, PollSucceeded: 1 });
    expect(organizationBlob).not.toHaveProperty('ListingProblems');
  });

  it('publishes no ListingProblems for a deferred cycle, which walked nothing', () => {
    const blobs = publish(pollReport({ outcome: 'deferred' }));
    expect(blobs.some((blob) => 'ListingProblems' in blob)).toBe(false);
  });

  it('publishes nothing for a skipped cycle, whose figures measured nothing', () => {
    expect(publish(pollReport({ outcome: 'skipped' }))).toEqual([]);
  });
});

describe('summarizePoll', () => {
  it("carries the new report's fields: requests by purpose, vanished orders, and the due time of the next cycle", () => {
    const summary = summarizePoll(
      pollReport({
        requestsFor: { detect: 3, resolve: 1, sweep: 2 },
        vanished: [{ uuid: 'a1', pickupDate: '2026-11-20', status: 'pending', establishment: 'e1' }],
        nextPollAt: Date.parse('2026-11-20T10:00:20Z'),
      }),
    );
    expect(summary).toMatchObject({
      requestsFor: { detect: 3, resolve: 1, sweep: 2 },
      vanished: 1,
      nextPollAt: '2026-11-20T10:00:20.000Z',
    });
  });

  it('counts the listing problems, which the poller logs apart', () => {
    const problem = {
      kind: 'repeated_uuid',
      listing: 'pending',
      page: 2,
      uuid: 'u1',
      detail: 'twice',
    } as const;
    expect(summarizePoll(pollReport({ problems: [problem] }))).toMatchObject({ listingProblems: 1 });
  });

  it('says why a cycle was deferred', () => {
    expect(summarizePoll(pollReport({ outcome: 'deferred', reason: 'no budget' }))).toMatchObject({
      outcome: 'deferred',
      reason: 'no budget',
    });
  });
});
