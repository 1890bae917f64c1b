// What the CDK stack and the Slack and webhook delivery functions must agree on about each subscriber's
// queue pair. Import it from here, never from a handler module: those parse their environment at import.
//
// Per Slack or webhook subscriber the stack creates an SQS queue (subscribed to the topic with raw message
// delivery and the subscriber's filter policy) and a dead-letter queue, and sets on the function that
// consumes it (environment variables, all required but NOTIFIER_CONFIG, which the bundle carries;
// DeliveryVariables in functionEnvironments.ts):
//
// | variable          | value                                                                        |
// |-------------------|------------------------------------------------------------------------------|
// | STATE_TABLE_NAME  | the state table; the function reads and writes `SUBSCRIBER#<id>` items        |
// | NOTIFIER_CONFIG   | the config JSON (secret references only), which the stack compiles into       |
// |                   | the bundle (bundledConfig.ts); set as a variable, it takes precedence         |
// | SECRETS_PREFIX    | Secrets Manager names are this prefix + each reference's `env` name           |
// | QUEUE_SUBSCRIBERS | JSON object: source queue ARN → subscriber id, for every queue it consumes     |
// | DLQ_URLS          | JSON object: subscriber id → URL of that subscriber's dead-letter queue        |
//
// e.g. QUEUE_SUBSCRIBERS = {"arn:aws:sqs:eu-west-1:123456789012:Notifier-HooksAcme-Q1w2":"acme-hooks"}
//      DLQ_URLS = {"acme-hooks":"https://sqs.eu-west-1.amazonaws.com/123456789012/Notifier-HooksAcmeDlq-E3r4"}
// (Stack.toJsonString over the queues' tokens builds both.) The functions refuse to start when a queue names
// a subscriber that is not in NOTIFIER_CONFIG, or of the other type, or that has no DLQ URL.
//
// Each queue's redrive policy sends a message to the same DLQ after MAX_RECEIVE_COUNT receives. The function
// itself dead-letters, with the reason in message attributes (DEAD_LETTER_ATTRIBUTES), what is permanent
// (a 4xx, a gone receiver, a malformed body) and what has spent the retry schedule; the redrive policy is the
// backstop for messages the function never settles (a crash, a timeout, an unknown queue).
//
// Permissions: consume the queue (including sqs:ChangeMessageVisibility), sqs:SendMessage on the DLQ,
// dynamodb:GetItem and dynamodb:PutItem on the table, secretsmanager:GetSecretValue on the subscriber's
// secrets. The event source mapping must enable ReportBatchItemFailures.
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

/** Records per invocation the functions are sized for; each is sent in turn. */
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
