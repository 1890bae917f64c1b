// What a dead-lettered message carries beside its original body, and how a queue ARN becomes the URL SQS
// calls need.
import { describe, expect, it } from 'vitest';
import { deadLetterAttributes } from '../../../shared/delivery/sqs/deadLetters.js';

describe('deadLetterAttributes', () => {
  it('names the kind, reason, subscriber, event, status, attempts and time', () => {
    expect(
      deadLetterAttributes({
        kind: 'dead',
        reason: 'https://hooks.example.test answered 422',
        subscriberId: 'hooks',
        eventId: 'evt-1',
        status: 422,
        attempts: 1,
        atMs: Date.parse('2026-11-20T10:00:00Z'),
      }),
    ).toEqual({
      kind: { DataType: 'String', StringValue: 'dead' },
      reason: { DataType: 'String', StringValue: 'https://hooks.example.test answered 422' },
      subscriber: { DataType: 'String', StringValue: 'hooks' },
      event_id: { DataType: 'String', StringValue: 'evt-1' },
      http_status: { DataType: 'Number', StringValue: '422' },
      attempts: { DataType: 'Number', StringValue: '1' },
      dead_lettered_at: { DataType: 'String', StringValue: '2026-11-20T10:00:00.000Z' },
    });
  });

  it('leaves out what is unknown, and cuts a long reason', () => {
    const attributes = deadLetterAttributes({
      kind: 'malformed',
      reason: 'x'.repeat(5_000),
      subscriberId: 'hooks',
      attempts: 3,
      atMs: 0,
    });
    expect(Object.keys(attributes)).not.toContain('event_id');
    expect(Object.keys(attributes)).not.toContain('http_status');
    expect(attributes.reason?.StringValue).toHaveLength(1_000);
    expect(Object.keys(attributes).length).toBeLessThanOrEqual(10);
  });
});
