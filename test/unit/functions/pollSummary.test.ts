// The poll cycle's log summary and EMF metrics: PollSucceeded, the organization's only metric, is 1 for a
// cycle that polled and whose every walk succeeded and 0 for anything else (a failed walk, a deferral for
// want of budget, a skip for another run's lease), so no such cycle can pass for a success; the cycle's
// figures are fields of its log line, none of them for a skip, which measured nothing; and
// ListingProblems, for a cycle that polled, once for the deployment, without the organization.
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publishPollMetrics, summarizePoll } from '../../../functions/poller/pollSummary.js';
import { METRICS_NAMESPACE, SERVICE_NAMES } from '../../../shared/contracts/customMetrics.js';
import type { PollReport } from '../../../shared/poll/pollReport.js';
import { captureOutput } from '../../support/captureOutput.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';
import { pollReport } from '../cli/pollReportFixture.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function publish(report: PollReport): Record<string, unknown>[] {
  const output = captureOutput();
  publishPollMetrics(
    new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.poller }),
    report,
  );
  vi.restoreAllMocks();
  return output.emf();
}

describe('publishPollMetrics', () => {
  it('publishes no metric of the organization, whatever its cycle: its figures are fields of the log line, its health is in the state table', () => {
    for (const report of [
      pollReport({ ok: true, requests: 12, budgetRemaining: 30, ordersSeen: 90 }),
      pollReport({ ok: false, failures: ['North School: 503'] }),
      pollReport({ outcome: 'deferred', requests: 0, budgetRemaining: 3 }),
      pollReport({ outcome: 'skipped' }),
    ]) {
      for (const blob of publish(report)) {
        expect(blob).not.toHaveProperty('Organization');
        expect(blob).not.toHaveProperty('PollSucceeded');
        expect(blob).not.toHaveProperty('PollOverdue');
      }
    }
  });

  it('publishes the listing problems of a cycle that polled as one metric of the deployment, without the organization', () => {
    const problem = {
      kind: 'skipped_record',
      listing: 'pending',
      page: 1,
      detail: 'total: invalid',
    } as const;
    const blobs = publish(pollReport({ problems: [problem, problem, problem] }));
    expect(blobs).toHaveLength(1);
    const [listingProblems] = blobs;
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
  });

  it('publishes no ListingProblems for a deferred cycle, which walked nothing', () => {
    const blobs = publish(pollReport({ outcome: 'deferred' }));
    expect(blobs.some((blob) => 'ListingProblems' in blob)).toBe(false);
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

  it('says why a cycle was deferred, and that it did not succeed', () => {
    expect(summarizePoll(pollReport({ outcome: 'deferred', reason: 'no budget' }))).toMatchObject({
      outcome: 'deferred',
      reason: 'no budget',
      ok: false,
    });
  });

  it("gives a skipped cycle's line no figures: it measured nothing, and a 0 would read as a spent budget", () => {
    const summary = summarizePoll(pollReport({ outcome: 'skipped', reason: 'another run is polling' }));
    expect(summary).toEqual({
      organization: ORGANIZATION.id,
      outcome: 'skipped',
      reason: 'another run is polling',
      ok: false,
    });
  });

  it('carries the figures the dashboard queries: requests, budget left, orders seen, events', () => {
    expect(summarizePoll(pollReport({ requests: 25, budgetRemaining: 20, ordersSeen: 1000 }))).toMatchObject({
      ok: true,
      requests: 25,
      budgetRemaining: 20,
      ordersSeen: 1000,
      events: 0,
    });
  });
});
