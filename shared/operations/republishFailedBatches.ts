// `meal-notifier republish --stack`: publishes the events of each stream batch the publisher gave up on,
// then deletes that batch's record from the failure queue. A batch's events are read back from the stream
// by shard and sequence numbers (exact, while the stream holds them: 24 hours); after that, only with
// `byTime`, from the event log by the time the batch reached the stream, which may republish events of
// other shards that had gone out (receivers dedupe on event ids; Slack and e-mail show them twice). A
// record is deleted only once every event of its batch is published: a batch left stays on the queue.
import type { NotifierEvent } from '../events/notifierEvent.js';
import type { StateStore } from '../store/stateStore.js';
import { counted } from '../text/counted.js';
import { StreamRecordsGoneError } from './errors.js';
import type { FailureQueueMessage, PublisherFailureQueue } from './publisherFailureQueue.js';
import { readStreamFailureRecord, type StreamBatchPosition } from './streamFailureRecord.js';

/** The port to the table's stream: the event items a failed batch held, in stream order. */
export interface StreamBatchReader {
  /**
   * @returns the events, and a line for each event item that is not a valid event
   * @throws StreamRecordsGoneError when the stream no longer holds the batch
   */
  eventsOf(position: StreamBatchPosition): Promise<{ events: NotifierEvent[]; unreadable: string[] }>;
}

/** The port to the event topic, publishing as the publisher does (same body, subject and attributes). */
export interface EventPublisher {
  /** @returns the events that were not published, with why; empty when all were */
  publish(events: readonly NotifierEvent[]): Promise<{ eventId: string; reason: string }[]>;
}

export interface RepublishPorts {
  failureQueue: PublisherFailureQueue;
  stream: StreamBatchReader;
  publisher: EventPublisher;
  /** The event log, for `byTime`. */
  store: Pick<StateStore, 'listEvents'>;
  /** Whose event logs `byTime` reads. */
  organizationIds: readonly string[];
}

export interface RepublishOptions {
  /** When the stream no longer holds a batch, publish every event recorded in its time window. */
  byTime: boolean;
}

export interface BatchOutcome {
  messageId: string;
  /** `shard …, sequence numbers … to …`, or the problem with the record. */
  batch: string;
  /** Published and deleted from the queue, or left on it. */
  state: 'republished' | 'left';
  published: number;
  /** Why it was left, in one line with what to do. */
  detail?: string;
  /**
   * Event items of the batch that are not valid events, one line each: never publishable (the publisher
   * refused them for that), so they are reported and the batch's other events published.
   */
  skipped?: string[];
}

/** Slack past the window's ends: arrival times are rounded, and an event is recorded just before it is written. */
const WINDOW_SLACK_MS = 60_000;

export async function republishFailedBatches(
  ports: RepublishPorts,
  options: RepublishOptions,
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = [];
  const seen = new Set<string>();
  for (;;) {
    // A message left stays hidden for the adapter's visibility timeout, so the loop meets each one once.
    const messages = (await ports.failureQueue.receive()).filter(({ messageId }) => !seen.has(messageId));
    if (messages.length === 0) return outcomes;
    for (const message of messages) {
      seen.add(message.messageId);
      outcomes.push(await republishBatch(message, ports, options));
    }
  }
}

async function republishBatch(
  message: FailureQueueMessage,
  ports: RepublishPorts,
  options: RepublishOptions,
): Promise<BatchOutcome> {
  const position = readStreamFailureRecord(message.body);
  if ('problem' in position) {
    return left(message, position.problem, 0, 'delete it from the queue by hand once you have read it');
  }
  const batch = `shard ${position.shardId}, sequence numbers ${position.startSequenceNumber} to ${position.endSequenceNumber}`;
  let events: NotifierEvent[];
  let skipped: string[] = [];
  try {
    const read = await ports.stream.eventsOf(position);
    events = read.events;
    skipped = read.unreadable;
  } catch (error) {
    if (!(error instanceof StreamRecordsGoneError)) throw error;
    if (!options.byTime) {
      return {
        ...left(message, batch, 0),
        detail: `${error.message}: rerun with --by-time to publish every event recorded while the batch reached the stream${windowText(position)}; some may go out twice`,
      };
    }
    const window = await eventsInWindow(position, ports);
    if ('problem' in window) return { ...left(message, batch, 0), detail: window.problem };
    events = window.events;
  }
  const failures = await ports.publisher.publish(events);
  const published = events.length - failures.length;
  if (failures.length > 0) {
    const first = failures[0];
    return {
      ...left(message, batch, published),
      detail: `${counted(failures.length, 'event')} not published, e.g. ${first?.eventId}: ${first?.reason}; run republish again once the cause is fixed`,
    };
  }
  await ports.failureQueue.remove(message.receiptHandle);
  return {
    messageId: message.messageId,
    batch,
    state: 'republished',
    published,
    ...(skipped.length === 0 ? {} : { skipped }),
  };
}

async function eventsInWindow(
  position: StreamBatchPosition,
  ports: RepublishPorts,
): Promise<{ events: NotifierEvent[] } | { problem: string }> {
  const { firstArrivalMs, lastArrivalMs } = position;
  if (firstArrivalMs === undefined || lastArrivalMs === undefined) {
    return { problem: 'the record does not say when the batch reached the stream, so --by-time cannot help' };
  }
  const from = firstArrivalMs - WINDOW_SLACK_MS;
  const until = lastArrivalMs + WINDOW_SLACK_MS;
  const found: { event: NotifierEvent; recordedAt: number }[] = [];
  for (const organizationId of ports.organizationIds) {
    for (const stored of await ports.store.listEvents(organizationId, from)) {
      if (stored.recordedAt <= until) found.push(stored);
    }
  }
  found.sort((a, b) => a.recordedAt - b.recordedAt);
  return { events: found.map(({ event }) => event) };
}

function windowText(position: StreamBatchPosition): string {
  const { firstArrivalMs, lastArrivalMs } = position;
  if (firstArrivalMs === undefined || lastArrivalMs === undefined) return '';
  return ` (${new Date(firstArrivalMs).toISOString()} to ${new Date(lastArrivalMs).toISOString()}, give or take a minute)`;
}

function left(message: FailureQueueMessage, batch: string, published: number, detail?: string): BatchOutcome {
  return {
    messageId: message.messageId,
    batch,
    state: 'left',
    published,
    ...(detail === undefined ? {} : { detail }),
  };
}
