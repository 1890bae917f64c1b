// Reads the event log's DynamoDB Stream records (NEW_IMAGE): an INSERT of an item of kind `event` carries
// one CloudEvent to publish; every other record (snapshots, poll state, leases, budgets, disabled
// subscribers, TTL removals, updates) is none of the publisher's business.
import type { DynamoDBRecord } from 'aws-lambda';
import { type NotifierEvent, NotifierEventSchema } from '../events/notifierEvent.js';
import { ItemKind } from '../store/dynamo/stateTableKeys.js';
import { StreamRecordError } from './errors.js';

export type StreamEntry =
  | { kind: 'event'; sequenceNumber: string; event: NotifierEvent; sourceTime?: number }
  /** An event item whose payload is not a valid event: reported as a failure, never published. */
  | { kind: 'malformed'; sequenceNumber: string; problem: string };

/** The entry of one stream record, or undefined when the record is not an event to publish. */
export function readStreamRecord(record: DynamoDBRecord): StreamEntry | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || image?.kind?.S !== ItemKind.event) return undefined;
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  // Without it the record could not be named in batchItemFailures, so it could be lost: fail the batch.
  if (!sequenceNumber) throw new StreamRecordError(record.eventID, 'has no dynamodb.SequenceNumber');
  const payload = image.payload?.S;
  if (payload === undefined)
    return { kind: 'malformed', sequenceNumber, problem: 'event item has no payload' };
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return { kind: 'malformed', sequenceNumber, problem: 'event payload is not JSON' };
  }
  const parsed = NotifierEventSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? first.path.join('.') : 'payload';
    return { kind: 'malformed', sequenceNumber, problem: `event payload ${where}: ${first?.message}` };
  }
  // When the change happened at the source, as the poll cycle logged it beside the event (absent when the
  // API did not tell): whether it was stale when found, for its `audience`.
  const sourceTime = Number(image.sourceTime?.N);
  return {
    kind: 'event',
    sequenceNumber,
    event: parsed.data,
    ...(Number.isFinite(sourceTime) && image.sourceTime?.N !== undefined ? { sourceTime } : {}),
  };
}

export interface StreamBatch {
  /** The events to publish now, in stream order. */
  toPublish: { sequenceNumber: string; event: NotifierEvent; sourceTime?: number }[];
  /** Records that are reported as failed without publishing, with why. */
  held: { sequenceNumber: string; reason: string }[];
  /** Records that are not events to publish. */
  ignored: number;
}

/**
 * Sorts a batch's records. A malformed event item fails, and so does every event after it: the stream
 * redelivers from the lowest failed sequence number on, so publishing those now would publish them twice.
 */
export function readStreamBatch(records: readonly DynamoDBRecord[]): StreamBatch {
  const batch: StreamBatch = { toPublish: [], held: [], ignored: 0 };
  let blockedBy: string | undefined;
  for (const record of records) {
    const entry = readStreamRecord(record);
    if (entry === undefined) batch.ignored += 1;
    else if (entry.kind === 'malformed') {
      batch.held.push({ sequenceNumber: entry.sequenceNumber, reason: entry.problem });
      blockedBy ??= entry.sequenceNumber;
    } else if (blockedBy !== undefined) {
      batch.held.push({
        sequenceNumber: entry.sequenceNumber,
        reason: `not attempted: record ${blockedBy} before it is malformed`,
      });
    } else {
      const { sequenceNumber, event, sourceTime } = entry;
      batch.toPublish.push({ sequenceNumber, event, ...(sourceTime === undefined ? {} : { sourceTime }) });
    }
  }
  return batch;
}
