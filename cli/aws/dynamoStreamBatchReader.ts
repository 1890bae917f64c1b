// The DynamoDB Streams adapter of the StreamBatchReader port: reads a failed batch's records back from the
// state table's stream, from its first sequence number to its last, and keeps the inserted event items,
// read by the publisher's own stream code.
import {
  type _Record,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import type { NotifierEvent } from '../../shared/events/notifierEvent.js';
import { StreamRecordsGoneError } from '../../shared/operations/errors.js';
import type { StreamBatchReader } from '../../shared/operations/republishFailedBatches.js';
import type { StreamBatchPosition } from '../../shared/operations/streamFailureRecord.js';
import { readStreamRecord } from '../../shared/publish/streamEvents.js';
import { stackAccessError } from './stackAccessError.js';

/** Past the stream's trim horizon, or the stream itself is gone (streams were turned off and on). */
const GONE = new Set(['TrimmedDataAccessException', 'ResourceNotFoundException', 'ExpiredIteratorException']);
/** A shard holds at most a day of one partition's writes; this many pages of 1,000 is far beyond it. */
const MAX_PAGES = 1_000;
const ENDPOINT_VARIABLE = 'AWS_ENDPOINT_URL_DYNAMODB_STREAMS';

export class DynamoStreamBatchReader implements StreamBatchReader {
  readonly #streams: DynamoDBStreamsClient;

  constructor(streams: DynamoDBStreamsClient) {
    this.#streams = streams;
  }

  async eventsOf(position: StreamBatchPosition): Promise<{ events: NotifierEvent[]; unreadable: string[] }> {
    const records = await this.#read(position);
    const events: NotifierEvent[] = [];
    const unreadable: string[] = [];
    for (const record of records) {
      // The SDK's record and Lambda's event record are the same JSON shape.
      const entry = readStreamRecord(record as unknown as DynamoDBRecord);
      if (entry?.kind === 'event') events.push(entry.event);
      else if (entry?.kind === 'malformed')
        unreadable.push(`record ${entry.sequenceNumber}: ${entry.problem}`);
    }
    return { events, unreadable };
  }

  async #read(position: StreamBatchPosition): Promise<_Record[]> {
    const end = BigInt(position.endSequenceNumber);
    const records: _Record[] = [];
    let iterator = await this.#call(position, () =>
      this.#streams
        .send(
          new GetShardIteratorCommand({
            StreamArn: position.streamArn,
            ShardId: position.shardId,
            ShardIteratorType: 'AT_SEQUENCE_NUMBER',
            SequenceNumber: position.startSequenceNumber,
          }),
        )
        .then((answer) => answer.ShardIterator),
    );
    for (let page = 0; iterator !== undefined; page += 1) {
      if (page === MAX_PAGES) {
        throw stackAccessError(
          `the stream ${position.streamArn}`,
          new Error(`sequence number ${position.endSequenceNumber} not reached after ${MAX_PAGES} pages`),
          ENDPOINT_VARIABLE,
        );
      }
      const current = iterator;
      const answer = await this.#call(position, () =>
        this.#streams.send(new GetRecordsCommand({ ShardIterator: current, Limit: 1_000 })),
      );
      for (const record of answer.Records ?? []) {
        const sequence = record.dynamodb?.SequenceNumber;
        if (sequence !== undefined && BigInt(sequence) > end) return records;
        records.push(record);
      }
      const last = answer.Records?.at(-1)?.dynamodb?.SequenceNumber;
      if (last !== undefined && BigInt(last) === end) return records;
      // An open shard may answer a page with no records yet more behind it; a closed one ends (no iterator).
      iterator = answer.NextShardIterator;
    }
    return records;
  }

  async #call<T>(position: StreamBatchPosition, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (GONE.has(name)) {
        throw new StreamRecordsGoneError(position.shardId, `${name}: streams keep records 24 hours`, {
          cause: error,
        });
      }
      throw stackAccessError(`the state table's stream ${position.streamArn}`, error, ENDPOINT_VARIABLE);
    }
  }
}
