// What the CDK stack and the Slack and webhook delivery functions must agree on about the delivery queues.
// Import it from here, never from a handler module: those parse their environment at import.
//
// Per channel type (Slack, webhook) that has subscribers, the stack creates ONE delivery queue and ONE
// dead-letter queue, whatever the number of subscribers: nothing in the stack or in a function's
// environment grows with them. The queue is subscribed to the event topic once (raw message delivery; a
// filter policy that only keeps digests out), and the function consumes it. A message on it is either:
// - an intake message, straight from the topic (no `subscriber` attribute): the function splits it into one
//   message per subscriber of its type that takes the event (routeEvent.ts: the filter, the catch-up
//   audience; the one decision the local runner makes too), sent back to the same queue with
//   MessageGroupId = the subscriber's id (an SQS fair queue: a subscriber with a backlog or a slow receiver
//   is a noisy tenant, and the others' messages are received first) and the `subscriber` attribute; or
// - a delivery message (`subscriber` attribute): delivered to that subscriber, with its own retry schedule
//   (ChangeMessageVisibility of that message alone) and its own dead letters (the shared dead-letter queue,
//   each letter carrying the `subscriber` attribute that `deliveries --stack` and `replay --stack` filter by).
//
// Environment variables (all required but NOTIFIER_CONFIG, which the bundle carries; DeliveryVariables in
// functionEnvironments.ts):
//
// | variable              | value                                                                    |
// |-----------------------|--------------------------------------------------------------------------|
// | STATE_TABLE_NAME      | the state table: `SUBSCRIBER#<id>` items, and the Slack boards' messages  |
// | NOTIFIER_CONFIG       | the config JSON (secret references only), compiled into the bundle        |
// |                       | (bundledConfig.ts); set as a variable, it takes precedence                |
// | SECRETS_PREFIX        | Secrets Manager names are this prefix + a subscriber secrets shard's name |
// | SUBSCRIBER_SECRET_SHARDS | how many shards the subscriber secrets are laid out over (secretShards.ts):|
// |                       | the bundle holds one type's subscribers, the shards all Slack and webhook ones|
// | DELIVERY_QUEUE_URL    | the channel's delivery queue (split messages and paused re-sends go there)|
// | DEAD_LETTER_QUEUE_URL | the channel's dead-letter queue                                           |
//
// The queue's redrive policy sends a message to the DLQ after MAX_RECEIVE_COUNT receives. The function
// itself dead-letters, with the reason in message attributes (DEAD_LETTER_ATTRIBUTES), what is permanent
// (a 4xx, a gone receiver, a malformed body) and what has spent the retry schedule; the redrive policy is the
// backstop for messages the function never settles (a crash, a timeout).
//
// Permissions: consume the queue (including sqs:ChangeMessageVisibility), sqs:SendMessage on the queue
// (the split, the paused re-send) and on the DLQ, dynamodb:GetItem, PutItem and Query on the table,
// secretsmanager:GetSecretValue on the subscriber secrets' shards holding its subscribers' secrets. The event source mapping must enable
// ReportBatchItemFailures.
import type { SlackSubscriber, WebhookSubscriber } from '../config/configSchema.js';
import { RETRY_SCHEDULE_MS } from '../delivery/retrySchedule.js';

/** The subscribers delivered through an SQS queue; e-mail goes through SNS e-mail subscriptions. */
export type DeliverySubscriber = WebhookSubscriber | SlackSubscriber;

/** Receives before SQS moves a message to the DLQ: one per attempt of the retry schedule (8). */
export const MAX_RECEIVE_COUNT = RETRY_SCHEDULE_MS.length;

/**
 * SQS refuses a visibility timeout that ends more than 12 h after the message was received, and the
 * receive happened before the invocation (up to a 5 min batching window, then up to 15 min of running).
 * Retry waits are cut to what is certain to fit: the schedule's last steps (10 h, +20 % jitter) become at
 * most 11 h 40 min.
 */
export const MAX_RETRY_VISIBILITY_SECONDS = 43_200 - 20 * 60;

/** Records per invocation the functions are sized for; one subscriber's in turn, different subscribers' at once. */
export const DELIVERY_BATCH_SIZE = 10;

/**
 * A record is only attempted while this much of the invocation is left: a send may take 15 s (the
 * senders' timeout), after up to 10 s waiting for a Slack pacing slot, plus the SQS and DynamoDB calls
 * that settle it. The rest are handed back at once, unattempted.
 */
export const ATTEMPT_TIME_RESERVE_MS = 30_000;

/**
 * Room for a full batch of slow sends, one after another; the queues' visibility timeout must be at least
 * this (SQS event sources refuse less), and AWS advises six times it.
 */
export const DELIVERY_FUNCTION_TIMEOUT_SECONDS = Math.ceil(
  (DELIVERY_BATCH_SIZE * ATTEMPT_TIME_RESERVE_MS) / 1000 + 30,
);

/** The message attributes of a message the function puts on a DLQ, beside the original body. */
export const DEAD_LETTER_ATTRIBUTES = {
  /** Why, in one line: the receiver's answer or the problem found (never a secret or a Slack URL). */
  reason: 'reason',
  /** `dead`, `gone`, `retries_exhausted`, `malformed` or `subscriber_disabled`. */
  kind: 'kind',
  subscriber: 'subscriber',
  /** The event id, when the body was an event. */
  eventId: 'event_id',
  /** The receiver's HTTP status, when there was one (Number). */
  status: 'http_status',
  /** Attempts made (Number). */
  attempts: 'attempts',
  /** RFC 3339. */
  deadLetteredAt: 'dead_lettered_at',
} as const;

/**
 * The attribute naming the one subscriber a delivery message is for (the same name its dead letters carry).
 * Absent, the message is an intake message from the topic, to be split.
 */
export const SUBSCRIBER_ATTRIBUTE = DEAD_LETTER_ATTRIBUTES.subscriber;

/**
 * How long a message of a paused subscriber (a Slack token revoked, the app not in the channel) waits before
 * it is tried again: SQS's longest delay. The message is sent again with this delay and the received copy
 * deleted, so a pause that lasts days never spends the receives that the redrive policy counts.
 */
export const PAUSED_RESEND_DELAY_SECONDS = 900;
