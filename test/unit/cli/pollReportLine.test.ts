import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  formatPollReportLine,
  MAX_PROBLEM_RECORDS,
  pollReportRecords,
} from '../../../cli/output/pollReportLine.js';
import type { ListingProblem } from '../../../shared/api/listingProblem.js';
import type { VanishedOrder } from '../../../shared/detect/planResolution.js';
import { leaseLostReport } from '../../../shared/poll/claimCycle.js';
import { describeLeaseOwner } from '../../../shared/poll/localRunId.js';
import { LeaseLostError } from '../../../shared/store/errors.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { pollReport } from './pollReportFixture.js';

/** The wall clock while the line is formatted: "next in N s" counts from it. */
const NOW = Date.UTC(2026, 2, 5, 10, 0, 0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

function skippedRecord(page: number, uuid = `0e9a0000-0000-4000-8000-0000000001${page}0`): ListingProblem {
  return {
    kind: 'skipped_record',
    listing: 'pending',
    page,
    uuid,
    detail: 'record #0 on the page: total: invalid',
  };
}

function vanishedOrder(n: number): VanishedOrder {
  return {
    uuid: `0e9a0000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
    pickupDate: '2026-03-05',
    status: 'pending',
    establishment: 'e1',
  };
}

describe('the status line of a cycle', () => {
  it('splits the requests by what they were for and says when the next cycle is due', () => {
    const report = pollReport({
      requests: 12,
      requestsFor: { detect: 8, resolve: 1, sweep: 3 },
      budgetRemaining: 30,
      ordersSeen: 66,
      nextPollAt: NOW + 21_000,
    });
    expect(formatPollReportLine(report, 45, { queued: 0, dead: 0 })).toBe(
      'North School: 12 requests (pending 8, look-up 1, sweep 3; 30/45 left this minute), 66 orders seen, ' +
        '0 events, next in 21 s',
    );
  });

  it('stays one short line for a quiet, healthy cycle, naming look-ups and sweep only when there were some', () => {
    const report = pollReport({ budgetRemaining: 41, nextPollAt: NOW + 10_000 });
    expect(formatPollReportLine(report, 45, { queued: 0, dead: 0 })).toBe(
      'North School: 4 requests (pending 4; 41/45 left this minute), 63 orders seen, 0 events, next in 10 s',
    );
  });

  it('puts every count of one in the singular: 1 request, 1 order seen, 1 delivery queued', () => {
    const report = pollReport({
      requests: 1,
      requestsFor: { detect: 1, resolve: 0, sweep: 0 },
      ordersSeen: 1,
      events: [makeOrderEvent()],
      budgetRemaining: 44,
      nextPollAt: NOW + 10_000,
    });
    expect(formatPollReportLine(report, 45, { queued: 1, dead: 0 })).toBe(
      'North School: 1 request (pending 1; 44/45 left this minute), 1 order seen, 1 event, 1 delivery queued, next in 10 s',
    );
  });

  it('names the sweep without look-ups, and look-ups without a sweep', () => {
    const swept = pollReport({ requests: 6, requestsFor: { detect: 4, resolve: 0, sweep: 2 } });
    expect(formatPollReportLine(swept, 45)).toMatch(/^North School: 6 requests \(pending 4, sweep 2; /);
    const lookedUp = pollReport({ requests: 6, requestsFor: { detect: 4, resolve: 2, sweep: 0 } });
    expect(formatPollReportLine(lookedUp, 45)).toMatch(/^North School: 6 requests \(pending 4, look-up 2; /);
  });

  it('names what each count was for before it, so no count sits before a noun it disagrees with', () => {
    const report = pollReport({
      requests: 3,
      requestsFor: { detect: 2, resolve: 0, sweep: 0, establishments: 1 },
    });
    expect(formatPollReportLine(report, 45)).toMatch(
      /^North School: 3 requests \(pending 2, establishments 1; /,
    );
  });

  it('counts the seconds to the next cycle from now, to the nearest second', () => {
    const line = (nextPollAt: number) => formatPollReportLine(pollReport({ nextPollAt }), 45);
    expect(line(NOW + 20_600)).toMatch(/, next in 21 s$/);
    expect(line(NOW + 20_400)).toMatch(/, next in 20 s$/);
    vi.setSystemTime(NOW + 5_000);
    expect(line(NOW + 20_400)).toMatch(/, next in 15 s$/);
  });

  it('says the cadence when it is hot or cold, and nothing for a normal or fixed one', () => {
    const line = (cadence: 'hot' | 'normal' | 'cold' | 'fixed') =>
      formatPollReportLine(pollReport({ cadence, nextPollAt: NOW + 4_000 }), 45);
    expect(line('hot')).toMatch(/, 0 events, cadence hot, next in 4 s$/);
    expect(line('cold')).toMatch(/, 0 events, cadence cold, next in 4 s$/);
    expect(line('normal')).toMatch(/, 0 events, next in 4 s$/);
    expect(line('fixed')).toMatch(/, 0 events, next in 4 s$/);
  });

  it('says next in 0 s, never a negative wait, when the next cycle is already due', () => {
    expect(formatPollReportLine(pollReport({ nextPollAt: NOW - 3_000 }), 45)).toMatch(/, next in 0 s$/);
  });

  it('names the deliveries queued and the dead letters when there are any', () => {
    const report = pollReport({ events: [makeOrderEvent()], budgetRemaining: 41, nextPollAt: NOW + 10_000 });
    expect(formatPollReportLine(report, 45, { queued: 3, dead: 1 })).toBe(
      'North School: 4 requests (pending 4; 41/45 left this minute), 63 orders seen, 1 event, ' +
        '3 deliveries queued, 1 dead letter, next in 10 s',
    );
  });

  it('says what was deferred for budget and how many listings failed', () => {
    const report = pollReport({
      ok: false,
      deferred: ['archived'],
      failures: ['North School: server error (500)'],
      budgetRemaining: 41,
      nextPollAt: NOW + 10_000,
    });
    expect(formatPollReportLine(report, 45, { queued: 1, dead: 0 })).toBe(
      'North School: 4 requests (pending 4; 41/45 left this minute), 63 orders seen, 0 events, 1 delivery queued, ' +
        'deferred for budget: archived, 1 failed, next in 10 s',
    );
  });

  it('says a cycle that could not reach the API so, without budget figures that do not apply', () => {
    const report = pollReport({
      ok: false,
      apiUnreachable: true,
      requests: 4,
      deferred: [],
      failures: ['North School: cannot reach http://127.0.0.1:9 (connection refused)'],
      budgetRemaining: 41,
      nextPollAt: NOW + 8_000,
    });
    expect(formatPollReportLine(report, 45, { queued: 2, dead: 0 })).toBe(
      'North School: could not reach the API, 2 deliveries queued, next in 8 s',
    );
  });

  it('says a cycle deferred for budget is waiting, and when it comes again', () => {
    const report = pollReport({
      outcome: 'deferred',
      reason: 'the token has no request budget left for pending now',
      requests: 0,
      requestsFor: { detect: 0, resolve: 0, sweep: 0 },
      deferred: ['pending 2026-03-05'],
      nextPollAt: NOW + 5_000,
    });
    expect(formatPollReportLine(report, 45)).toBe(
      'North School: waiting for request budget, next cycle in 5 s',
    );
    expect(formatPollReportLine(report, 45, { queued: 2, dead: 1 })).toBe(
      'North School: waiting for request budget, next cycle in 5 s, 2 deliveries queued, 1 dead letter',
    );
  });

  it('says why a cycle was skipped', () => {
    const report = pollReport({ outcome: 'skipped', reason: 'request budget exhausted for this token' });
    expect(formatPollReportLine(report, 45, { queued: 0, dead: 2 })).toBe(
      'North School: skipped (request budget exhausted for this token), 2 dead letters',
    );
  });
});

describe('a cycle whose lease was taken over', () => {
  it('is one warning line naming the loss, the holder and that its state stands, then nothing else', () => {
    const lost = new LeaseLostError('savePollState', ORGANIZATION.id, 'run-a', 'hostname:4242:m1abc');
    const report = pollReport({ ...leaseLostReport(lost), events: [] });
    const records = pollReportRecords(report, 45, { queued: 0, dead: 0 });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      level: 'warn',
      fields: { outcome: 'skipped', leaseLost: true, leaseHolder: 'hostname:4242:m1abc' },
    });
    expect(records[0]?.message).toBe(
      `North School: lease lost during the cycle to another run (${describeLeaseOwner('hostname:4242:m1abc')}): nothing more of this cycle was written, and that run's state stands`,
    );
  });
});

describe('the log records of a cycle', () => {
  it('carry the status line and its figures, then one record per failure', () => {
    const report = pollReport({
      ok: false,
      failures: ['North School: token rejected (401)'],
      requests: 7,
      requestsFor: { detect: 4, resolve: 2, sweep: 1 },
      vanished: [vanishedOrder(1), vanishedOrder(2)],
      budgetRemaining: 38,
      nextPollAt: NOW + 21_000,
    });
    const [cycle, failure, ...rest] = pollReportRecords(report, 45, { queued: 2, dead: 0 });
    expect(rest).toEqual([]);
    expect(cycle).toMatchObject({
      level: 'warn',
      kind: 'cycle',
      message: formatPollReportLine(report, 45, { queued: 2, dead: 0 }),
      fields: {
        organization: 'North School',
        outcome: 'polled',
        requests: 7,
        requestsFor: { detect: 4, resolve: 2, sweep: 1 },
        vanished: 2,
        nextPollAt: '2026-03-05T10:00:21.000Z',
        budgetRemaining: 38,
        budgetPerMinute: 45,
        ordersSeen: 63,
        events: 0,
        deliveriesQueued: 2,
        deliveriesDead: 0,
        ok: false,
      },
    });
    expect(failure).toMatchObject({
      level: 'warn',
      kind: 'failure',
      message: '  North School: token rejected (401)',
      fields: { error: 'North School: token rejected (401)' },
    });
  });

  it('log a healthy cycle at info, with no vanished orders counted as 0', () => {
    const [cycle, ...rest] = pollReportRecords(pollReport(), 45, { queued: 0, dead: 0 });
    expect(rest).toEqual([]);
    expect(cycle).toMatchObject({ level: 'info', fields: { ok: true, vanished: 0 } });
  });

  it('carry a deferred cycle’s outcome and reason', () => {
    const report = pollReport({
      outcome: 'deferred',
      reason: 'the token has no request budget left for pending now',
      nextPollAt: NOW + 5_000,
    });
    const [cycle] = pollReportRecords(report, 45, { queued: 0, dead: 0 });
    expect(cycle).toMatchObject({
      level: 'info',
      message: 'North School: waiting for request budget, next cycle in 5 s',
      fields: {
        outcome: 'deferred',
        reason: 'the token has no request budget left for pending now',
        nextPollAt: '2026-03-05T10:00:05.000Z',
      },
    });
  });

  it('do not repeat a skipped cycle’s reason as a failure', () => {
    const reason = 'request budget exhausted for this token';
    const report = pollReport({
      outcome: 'skipped',
      ok: false,
      reason,
      failures: [`North School: ${reason}`],
    });
    expect(pollReportRecords(report, 45, { queued: 0, dead: 0 }).map((record) => record.kind)).toEqual([
      'cycle',
    ]);
  });

  it('warn after the cycle line, one record per listing problem, with its listing, page and uuid', () => {
    const report = pollReport({
      nextPollAt: NOW + 10_000,
      problems: [
        skippedRecord(1),
        {
          kind: 'inconsistent_walk',
          listing: 'completed',
          page: 3,
          detail: 'meta.total moved from 30 to 31',
        },
      ],
    });
    const [cycle, ...problems] = pollReportRecords(report, 45, { queued: 0, dead: 0 });
    // A cycle that met problems is a warning even though every walk was fetched.
    expect(cycle).toMatchObject({
      level: 'warn',
      message:
        'North School: 4 requests (pending 4; 46/45 left this minute), 63 orders seen, 0 events, 2 listing problems, next in 10 s',
      fields: { ok: true, listingProblems: 2 },
    });
    expect(problems).toEqual([
      {
        level: 'warn',
        kind: 'listing',
        message:
          '  warning: North School: listing pending, page 1, order 0e9a0000-0000-4000-8000-000000000110: skipped malformed record (record #0 on the page: total: invalid)',
        fields: expect.objectContaining({ organization: 'North School', problem: skippedRecord(1) }),
      },
      {
        level: 'warn',
        kind: 'listing',
        message:
          '  warning: North School: listing completed, page 3: inconsistent walk (meta.total moved from 30 to 31)',
        fields: expect.objectContaining({ problem: report.problems[1] }),
      },
    ]);
  });

  it('count the problems past the first few in one more warning, never leaving one unsaid', () => {
    const many = Array.from({ length: MAX_PROBLEM_RECORDS + 3 }, (_, i) =>
      skippedRecord(1, `0e9a0000-0000-4000-8000-0000000002${String(i).padStart(2, '0')}`),
    );
    many.push({
      kind: 'repeated_uuid',
      listing: 'pending',
      page: 2,
      uuid: 'u-twice',
      detail: 'listed before',
    });
    const records = pollReportRecords(pollReport({ problems: many }), 45, { queued: 0, dead: 0 });
    expect(records).toHaveLength(1 + MAX_PROBLEM_RECORDS + 1);
    expect(records.at(-1)).toMatchObject({
      level: 'warn',
      kind: 'listing',
      message:
        '  warning: North School: 4 more listing problems: 3 skipped malformed records, 1 uuid listed twice',
      fields: {
        more: 4,
        uuids: [...many.slice(MAX_PROBLEM_RECORDS).map((problem) => problem.uuid)],
      },
    });
  });
});
