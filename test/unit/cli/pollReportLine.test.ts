import { describe, expect, it } from 'vitest';
import { formatPollReportLine, pollReportRecords } from '../../../cli/output/pollReportLine.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { pollReport } from './pollReportFixture.js';

describe('the status line of a cycle', () => {
  it('stays one short line for a quiet, healthy cycle', () => {
    expect(formatPollReportLine(pollReport(), 50, { queued: 0, dead: 0 })).toBe(
      'North School: 4 requests (46/50 left this minute), 63 orders seen, 0 events',
    );
  });

  it('names the deliveries queued and the dead letters when there are any', () => {
    const report = pollReport({ events: [makeOrderEvent()] });
    expect(formatPollReportLine(report, 50, { queued: 3, dead: 1 })).toBe(
      'North School: 4 requests (46/50 left this minute), 63 orders seen, 1 event, 3 deliveries queued, 1 dead letter',
    );
  });

  it('says what was deferred for budget and how many listings failed', () => {
    const report = pollReport({
      ok: false,
      deferred: ['archived'],
      failures: ['North School: server error (500)'],
    });
    expect(formatPollReportLine(report, 50, { queued: 1, dead: 0 })).toBe(
      'North School: 4 requests (46/50 left this minute), 63 orders seen, 0 events, 1 delivery queued, ' +
        'deferred for budget: archived, 1 failed',
    );
  });

  it('says why a cycle was skipped', () => {
    const report = pollReport({ outcome: 'skipped', reason: 'request budget exhausted for this token' });
    expect(formatPollReportLine(report, 50, { queued: 0, dead: 2 })).toBe(
      'North School: skipped (request budget exhausted for this token), 2 dead letters',
    );
  });
});

describe('the log records of a cycle', () => {
  it('carry the status line and its figures, then one record per failure', () => {
    const report = pollReport({ ok: false, failures: ['North School: token rejected (401)'] });
    const [cycle, failure, ...rest] = pollReportRecords(report, 50, { queued: 2, dead: 0 });
    expect(rest).toEqual([]);
    expect(cycle).toMatchObject({
      level: 'warn',
      kind: 'cycle',
      message: expect.stringMatching(/^North School: 4 requests/),
      fields: {
        organization: 'North School',
        requests: 4,
        budgetRemaining: 46,
        budgetPerMinute: 50,
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

  it('do not repeat a skipped cycle’s reason as a failure', () => {
    const reason = 'request budget exhausted for this token';
    const report = pollReport({
      outcome: 'skipped',
      ok: false,
      reason,
      failures: [`North School: ${reason}`],
    });
    expect(pollReportRecords(report, 50, { queued: 0, dead: 0 }).map((record) => record.kind)).toEqual([
      'cycle',
    ]);
  });
});
