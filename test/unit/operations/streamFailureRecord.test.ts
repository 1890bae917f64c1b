// The record Lambda puts on the publisher's failure queue: where the failed batch lies in the stream, and
// when it arrived there; anything else on that queue is named as not such a record.
import { describe, expect, it } from 'vitest';
import { readStreamFailureRecord } from '../../../shared/operations/streamFailureRecord.js';

/** As Lambda writes it for a DynamoDB stream event source mapping (AWS Lambda developer guide). */
const RECORD = {
  requestContext: {
    requestId: '316aa6d0-8154-xmpl-9af7-85d5f4a6bc81',
    functionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:Notifier-Publisher',
    condition: 'RetryAttemptsExhausted',
    approximateInvokeCount: 21,
  },
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  version: '1.0',
  timestamp: '2026-11-22T10:15:42.321Z',
  DDBStreamBatchInfo: {
    shardId: 'shardId-00000001573689847184-864758bb',
    startSequenceNumber: '800000000003126276362',
    endSequenceNumber: '800000000003126276363',
    approximateArrivalOfFirstRecord: '2026-11-22T10:15:19Z',
    approximateArrivalOfLastRecord: '2026-11-22T10:15:21Z',
    batchSize: 2,
    streamArn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/Notifier-State/stream/2026-11-01T00:00:00.000',
  },
};

describe('readStreamFailureRecord', () => {
  it('reads the shard, the sequence numbers and the arrival times of a failed batch', () => {
    expect(readStreamFailureRecord(JSON.stringify(RECORD))).toEqual({
      streamArn: RECORD.DDBStreamBatchInfo.streamArn,
      shardId: 'shardId-00000001573689847184-864758bb',
      startSequenceNumber: '800000000003126276362',
      endSequenceNumber: '800000000003126276363',
      firstArrivalMs: Date.parse('2026-11-22T10:15:19Z'),
      lastArrivalMs: Date.parse('2026-11-22T10:15:21Z'),
      condition: 'RetryAttemptsExhausted',
    });
  });

  it('names what is missing in a message that is not such a record', () => {
    const { DDBStreamBatchInfo, ...rest } = RECORD;
    const { shardId: _, ...noShard } = DDBStreamBatchInfo;
    expect(readStreamFailureRecord(JSON.stringify({ ...rest, DDBStreamBatchInfo: noShard }))).toEqual({
      problem: expect.stringContaining('DDBStreamBatchInfo.shardId'),
    });
    expect(readStreamFailureRecord('hello')).toEqual({ problem: expect.stringContaining('not JSON') });
  });
});
