// The port to a deployed stack's per-subscriber queues (each Slack or webhook subscriber has a queue the
// event topic feeds and a dead-letter queue): how deep they are, what the dead-letter queue holds and why,
// moving dead letters back, and putting events on a subscriber's queue. The SQS adapter is the CLI's.
import type { NotifierEvent } from '../events/notifierEvent.js';

export interface QueueDepth {
  /** Messages on the subscriber's queue: waiting, being delivered, or hidden until their next retry. */
  queued: number;
  /** Messages on its dead-letter queue. */
  dead: number;
}

/** One message of a dead-letter queue, read without taking it off the queue. */
export interface DeadLetterMessage {
  messageId: string;
  /** The original message body: the event's JSON, unless the message was malformed. */
  body: string;
  /** Why it is there, from the message attributes the delivery function sets; undefined when SQS's own
   *  redrive policy moved it (the function never settled it: a crash or a timeout). */
  kind: string | undefined;
  reason: string | undefined;
  attempts: number | undefined;
  httpStatus: number | undefined;
  /** RFC 3339: when it was dead-lettered, or sent to the queue when that is not recorded. */
  deadLetteredAt: string | undefined;
}

export interface DeliveryQueues {
  /** Whether the stack's outputs name this subscriber's queues. */
  knows(subscriberId: string): boolean;
  depth(subscriberId: string): Promise<QueueDepth>;
  /** Up to `limit` messages of the subscriber's dead-letter queue; they stay on it. */
  deadLetters(subscriberId: string, limit: number): Promise<DeadLetterMessage[]>;
  /** Moves every message of the dead-letter queue back to the subscriber's queue; returns how many. */
  redrive(subscriberId: string, options: SendOptions): Promise<number>;
  /** Puts the events on the subscriber's queue as the event topic would have delivered them. */
  send(subscriberId: string, events: readonly NotifierEvent[], options: SendOptions): Promise<void>;
}

export interface SendOptions {
  /** Keeps the messages hidden this long first (SQS allows up to 900 s). */
  delaySeconds: number;
}
