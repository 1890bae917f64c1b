import { describe, expect, it } from 'vitest';
import { runSummaryRecord } from '../../../cli/output/runSummary.js';
import { RunTally } from '../../../cli/runtime/runTally.js';
import type { DeliveryReport } from '../../../shared/delivery/outboxDelivery.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { pollReport } from './pollReportFixture.js';

const north = { id: '0e9a0000-0000-4000-8000-00000000000a', name: 'North School' };
const south = { id: '0e9a0000-0000-4000-8000-00000000000b', name: 'South Academy' };

function delivery(state: DeliveryReport['state']): DeliveryReport {
  return {
    subscriberId: 'automation',
    eventId: 'e',
    eventType: 'order.created',
    reference: 'NS-1',
    outcome: state === 'delivered' ? { kind: 'delivered' } : { kind: 'retry', reason: '500' },
    attempts: 1,
    state,
    eventTime: '2026-03-05T10:00:00.000Z',
  };
}

describe('the summary on exit', () => {
  it('counts cycles, failures, events and deliveries per organization, with what the outbox still holds', () => {
    const tally = new RunTally([north, south], 0);
    tally.recordCycle(pollReport({ events: [makeOrderEvent(), makeOrderEvent({ type: 'order.canceled' })] }));
    tally.recordCycle(pollReport({ ok: false }));
    tally.recordCycleError(south.id);
    tally.recordDelivery(north.id, delivery('delivered'));
    tally.recordDelivery(north.id, delivery('queued'));
    tally.recordDelivery(undefined, delivery('delivered'));
    const rows = tally
      .organizations()
      .map((row) => ({ ...row, queued: row.id === north.id ? 1 : 0, dead: 0 }));
    const record = runSummaryRecord(rows, 125_000);
    expect(record.kind).toBe('summary');
    expect(record.message.split('\n')).toEqual([
      'Stopped after 2 min 5 s: 2 events recorded, 1 delivery made.',
      '  organization   cycles  failed  problems  events  delivered  queued  dead',
      '  North School        2       1         0       2          1       1     0',
      '  South Academy       1       1         0       0          0       0     0',
    ]);
    expect(record.fields?.organizations).toEqual([
      expect.objectContaining({
        organization: 'North School',
        cycles: 2,
        failedCycles: 1,
        events: 2,
        delivered: 1,
        failedAttempts: 1,
        queued: 1,
      }),
      expect.objectContaining({ organization: 'South Academy', cycles: 1, failedCycles: 1 }),
    ]);
  });

  it('counts the listing problems the cycles met, and says so in its first line', () => {
    const tally = new RunTally([north], 0);
    const problem = {
      kind: 'skipped_record',
      listing: 'pending',
      page: 1,
      detail: 'total: invalid',
    } as const;
    tally.recordCycle(pollReport({ problems: [problem, { ...problem, page: 2 }] }));
    tally.recordCycle(pollReport({ problems: [problem] }));
    const record = runSummaryRecord(
      tally.organizations().map((row) => ({ ...row, queued: 0, dead: 0 })),
      10_000,
    );
    expect(record.message.split('\n')).toEqual([
      'Stopped after 10 s: 0 events recorded, 0 deliveries made. 3 listing problems met (see the warnings).',
      '  organization  cycles  failed  problems  events  delivered  queued  dead',
      '  North School       2       0         3       0          0       0     0',
    ]);
    expect(record.fields?.organizations).toEqual([expect.objectContaining({ listingProblems: 3 })]);
  });
});
