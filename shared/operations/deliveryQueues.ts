// The port to a deployed stack's delivery queues (one queue the event topic feeds and one dead-letter queue
// per channel type, each message naming its subscriber): how deep the channel's queue is, how many dead
// letters are a subscriber's, what the dead-letter queue holds and why,
// moving dead letters back, and putting events on a subscriber's queue. The SQS adapter is the CLI's.
import type { NotifierEvent } from '../events/notifierEvent.js';

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
  /**
   * Messages on the queue of the subscriber's channel (waiting, being delivered, or hidden until their next
   * retry): every subscriber of that channel type together, since SQS counts no attribute.
   */
  channelQueued(subscriberId: string): Promise<number>;
  /** The subscriber's own dead letters, counted by the `subscriber` attribute each carries. */
  deadCount(subscriberId: string): Promise<number>;
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
