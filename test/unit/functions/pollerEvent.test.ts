// What invokes the poller: the schedule's `{ "organizationId": "…" }`, or an SQS batch of ticks from the
// tick queue; a record that is not a tick is set aside (to be logged and dropped), an event that is
// neither is refused.
import { describe, expect, it } from 'vitest';
import { parsePollerEvent } from '../../../functions/poller/pollerEvent.js';
import { sqsRecord } from '../../support/lambdaRecords.js';

const ORGANIZATION = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';

describe('parsePollerEvent', () => {
  it("reads the schedule's input as one trigger", () => {
    expect(parsePollerEvent({ organizationId: ORGANIZATION })).toEqual({
      kind: 'schedule',
      trigger: { source: 'schedule', organizationId: ORGANIZATION },
    });
  });

  it('reads each tick record of an SQS batch as a trigger, with its due time and message id', () => {
    const record = sqsRecord({
      queue: 'ticks',
      body: JSON.stringify({ organizationId: ORGANIZATION, dueAt: 1_000 }),
    });
    expect(parsePollerEvent({ Records: [record] })).toEqual({
      kind: 'ticks',
      triggers: [{ source: 'tick', organizationId: ORGANIZATION, dueAt: 1_000, messageId: record.messageId }],
      malformed: [],
    });
  });

  it('sets aside a record whose body is not a tick, keeping the others', () => {
    const good = sqsRecord({
      queue: 'ticks',
      body: JSON.stringify({ organizationId: ORGANIZATION, dueAt: 5 }),
    });
    const notJson = sqsRecord({ queue: 'ticks', body: 'hello' });
    const noDueAt = sqsRecord({ queue: 'ticks', body: JSON.stringify({ organizationId: ORGANIZATION }) });
    const parsed = parsePollerEvent({ Records: [good, notJson, noDueAt] });
    expect(parsed.kind === 'ticks' && parsed.triggers.map(({ messageId }) => messageId)).toEqual([
      good.messageId,
    ]);
    expect(parsed.kind === 'ticks' && parsed.malformed.map(({ messageId }) => messageId)).toEqual([
      notJson.messageId,
      noDueAt.messageId,
    ]);
  });

  it("refuses an event that is neither the schedule's nor an SQS batch", () => {
    for (const event of [{}, null, 'tick', { Records: [{ eventSource: 'aws:dynamodb' }] }]) {
      expect(() => parsePollerEvent(event)).toThrow('poller event must be {"organizationId": "<uuid>"}');
    }
  });
});
