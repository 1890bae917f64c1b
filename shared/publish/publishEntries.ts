// One SNS PublishBatch entry per event, and the grouping of entries into requests SNS accepts: at most 10
// entries and 256 KiB of messages in all per PublishBatch.
import type { PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { type AudienceContext, eventMessageAttributes } from '../contracts/messageAttributes.js';
import { snsMessageBody, snsSubject } from '../delivery/email/snsEmailMessage.js';
import type { HighlightWordsOf } from '../delivery/highlightWordsOf.js';
import type { NotifierEvent } from '../events/notifierEvent.js';

export const SNS_BATCH_MAX_ENTRIES = 10;
/** SNS caps the aggregate size of one PublishBatch's messages (bodies and attributes) at 262,144 bytes. */
export const SNS_BATCH_MAX_BYTES = 262_144;

/** A PublishBatch entry before it gets its place (`Id`) in a request. */
export type PublishEntryBody = Omit<PublishBatchRequestEntry, 'Id'>;

/**
 * The entry for `event`. `Message` holds a body per protocol (`MessageStructure: 'json'`): `default`, the
 * full CloudEvent for the SQS queues, whose delivery functions redact contact details per subscriber; and
 * `email`, the text e-mail, always without them (see snsEmailMessage.ts), its notes flagged with the
 * words of the event's organization.
 */
export function publishEntry(
  event: NotifierEvent,
  highlightWords: HighlightWordsOf,
  audience: AudienceContext = {},
): PublishEntryBody {
  return {
    Message: snsMessageBody(event, highlightWords),
    MessageStructure: 'json',
    Subject: snsSubject(event, highlightWords),
    MessageAttributes: eventMessageAttributes(event, audience),
  };
}

/** What the entry counts against the batch's size limit: message, subject and attributes, in bytes. */
export function entryBytes(entry: PublishEntryBody): number {
  let bytes = Buffer.byteLength(entry.Message ?? '') + Buffer.byteLength(entry.Subject ?? '');
  for (const [name, value] of Object.entries(entry.MessageAttributes ?? {})) {
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value.DataType ?? '');
    bytes += Buffer.byteLength(value.StringValue ?? '') + (value.BinaryValue?.byteLength ?? 0);
  }
  return bytes;
}

/**
 * Consecutive groups of `items`, in order, each within SNS's entry and size limits. An item too large on its
 * own gets a group of its own, so SNS refuses that entry alone.
 */
export function chunkForPublishBatch<T>(
  items: readonly T[],
  bytesOf: (item: T) => number,
  limits: { maxEntries: number; maxBytes: number } = {
    maxEntries: SNS_BATCH_MAX_ENTRIES,
    maxBytes: SNS_BATCH_MAX_BYTES,
  },
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let currentBytes = 0;
  for (const item of items) {
    const bytes = bytesOf(item);
    if (
      current.length > 0 &&
      (current.length >= limits.maxEntries || currentBytes + bytes > limits.maxBytes)
    ) {
      chunks.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(item);
    currentBytes += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
