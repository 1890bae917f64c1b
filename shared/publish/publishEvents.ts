// Publishes the events of one stream batch to SNS with PublishBatch, in stream order, and says which
// records failed, so the handler can report exactly those as partial batch failures.
//
// Why not Powertools' BatchProcessor: it hands records to a handler one at a time, while PublishBatch
// needs up to 10 of them in one call whose answer is per entry; mapping that answer back to stream
// sequence numbers is this module's whole job.
//
// Once something fails, later chunks are not sent: the stream redelivers every record from the lowest
// failed sequence number on, so publishing them now would only publish them twice.
import { PublishBatchCommand, type PublishBatchCommandOutput, type SNSClient } from '@aws-sdk/client-sns';
import type { HighlightWordsOf } from '../delivery/highlightWordsOf.js';
import type { NotifierEvent } from '../events/notifierEvent.js';
import { chunkForPublishBatch, entryBytes, type PublishEntryBody, publishEntry } from './publishEntries.js';

export interface PendingEvent {
  /** The stream record's `dynamodb.SequenceNumber`. */
  sequenceNumber: string;
  event: NotifierEvent;
  /** When its change happened at the source (epoch ms), when the event log has it. */
  sourceTime?: number | undefined;
}

export interface PublishSettings {
  /** The config's catch-up thresholds in seconds: whom each event is for (`audience`). */
  catchUpAfterSeconds: readonly number[];
}

export interface PublishFailure {
  sequenceNumber: string;
  eventId: string;
  reason: string;
  /** SNS blamed the entry itself (it will fail again) rather than a passing condition. */
  senderFault: boolean;
}

export interface PublishReport {
  published: number;
  failures: PublishFailure[];
}

interface Prepared {
  pending: PendingEvent;
  entry: PublishEntryBody;
  bytes: number;
}

/** @param highlightWords each organization's words that flag a note in the e-mail body (its config's) */
export async function publishEvents(
  sns: SNSClient,
  topicArn: string,
  events: readonly PendingEvent[],
  highlightWords: HighlightWordsOf,
  settings: PublishSettings,
): Promise<PublishReport> {
  const prepared = events.map((pending): Prepared => {
    const entry = publishEntry(pending.event, highlightWords, {
      sourceTime: pending.sourceTime,
      catchUpAfterSeconds: settings.catchUpAfterSeconds,
    });
    return { pending, entry, bytes: entryBytes(entry) };
  });
  const report: PublishReport = { published: 0, failures: [] };
  for (const chunk of chunkForPublishBatch(prepared, ({ bytes }) => bytes)) {
    if (report.failures.length > 0) {
      report.failures.push(
        ...chunk.map(({ pending }) =>
          failure(pending, 'not attempted: an earlier record of this batch failed to publish', false),
        ),
      );
      continue;
    }
    await publishChunk(sns, topicArn, chunk, report);
  }
  return report;
}

async function publishChunk(
  sns: SNSClient,
  topicArn: string,
  chunk: readonly Prepared[],
  report: PublishReport,
): Promise<void> {
  // Positions are safe ids (SNS allows letters, digits, "-" and "_", unique per request); event ids may
  // hold other characters and sequence numbers would tie the request to the stream's format.
  const entries = chunk.map(({ entry }, index) => ({ Id: `e${index}`, ...entry }));
  let answer: PublishBatchCommandOutput;
  try {
    answer = await sns.send(
      new PublishBatchCommand({ TopicArn: topicArn, PublishBatchRequestEntries: entries }),
    );
  } catch (error) {
    // Throttling (after the SDK's own retries), KMS or network trouble: nothing of this call is known to
    // be published, so all of it is reported.
    const reason = `PublishBatch failed: ${describeError(error)}`;
    report.failures.push(...chunk.map(({ pending }) => failure(pending, reason, false)));
    return;
  }
  const succeeded = new Set((answer.Successful ?? []).map(({ Id }) => Id));
  const failedById = new Map((answer.Failed ?? []).map((entry) => [entry.Id, entry]));
  chunk.forEach(({ pending }, index) => {
    const id = `e${index}`;
    if (succeeded.has(id)) {
      report.published += 1;
      return;
    }
    // An entry in neither list was not confirmed, so it counts as failed.
    const failed = failedById.get(id);
    const reason = failed
      ? `SNS refused the entry: ${failed.Code ?? 'unknown code'}${failed.Message ? ` (${failed.Message})` : ''}`
      : 'SNS did not confirm the entry';
    report.failures.push(failure(pending, reason, failed?.SenderFault ?? false));
  });
}

function failure(pending: PendingEvent, reason: string, senderFault: boolean): PublishFailure {
  return { sequenceNumber: pending.sequenceNumber, eventId: pending.event.id, reason, senderFault };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.message ? `${error.name}: ${error.message}` : error.name;
}
