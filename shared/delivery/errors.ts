// Typed delivery failures: each says which subscriber setting or send went wrong and why, so callers
// branch on the class and operators read the reason without digging.
import { FixByHandError } from '../errors/fixByHandError.js';
import { TransientError } from '../errors/transientError.js';

/** A subscriber's settings cannot work; found before any delivery, so startup stops on it. */
export class SubscriberConfigError extends FixByHandError {
  /** The subscriber at fault, when the error is about one. */
  readonly subscriberId: string | undefined;

  constructor(message: string, subscriberId?: string, options?: ErrorOptions) {
    super(message, options);
    this.subscriberId = subscriberId;
  }
}

/** A subscriber filter that SNS subscription filter policies cannot express (too many keys or combinations). */
export class FilterPolicyError extends SubscriberConfigError {
  /** Why SNS refuses it, in the filter's own key names, e.g. `filter has 180 value combinations; …`. */
  readonly reason: string;

  constructor(reason: string) {
    super(`SNS cannot express this subscriber filter: ${reason}`);
    this.reason = reason;
  }
}

/** Which configured webhook secret was refused, when the caller knows. */
export interface WebhookSecretLocation {
  subscriberId?: string;
  /** 0-based position in the subscriber's list of secrets. */
  index?: number;
}

/** A webhook signing secret that is not `whsec_` + base64 of 24 to 64 bytes. The secret is never quoted. */
export class WebhookSecretError extends SubscriberConfigError {
  readonly secretIndex: number | undefined;

  constructor(problem: string, location: WebhookSecretLocation = {}) {
    const who =
      location.subscriberId === undefined ? 'webhook' : `webhook subscriber "${location.subscriberId}"`;
    const which = location.index === undefined ? 'signing secret' : `signing secret #${location.index + 1}`;
    super(
      `${who}: ${which} ${problem}; expected "whsec_" followed by the base64 of 24 to 64 random bytes (Standard Webhooks)`,
      location.subscriberId,
    );
    this.secretIndex = location.index;
  }
}

/** A webhook URL we cannot deliver to. Only its scheme is quoted: paths and queries often carry tokens. */
export class WebhookUrlError extends SubscriberConfigError {
  constructor(subscriberId: string, problem: string) {
    super(`webhook subscriber "${subscriberId}": ${problem}`, subscriberId);
  }
}

/** An e-mail subscriber that cannot send at all: no recipients, no sender, or an unusable SMTP URL. */
export class SmtpConfigError extends SubscriberConfigError {
  /** What is wrong, never quoting the SMTP URL: it carries the password. */
  readonly problem: string;

  constructor(subscriberId: string, problem: string) {
    super(`e-mail subscriber "${subscriberId}": ${problem}`, subscriberId);
    this.problem = problem;
  }
}

/**
 * A Slack subscriber whose webhook URL is not an http(s) URL. The value is never quoted: it may be the URL
 * with a typo, which is still the credential.
 */
export class SlackWebhookUrlError extends SubscriberConfigError {
  /** @param secretName the environment variable or Secrets Manager secret that holds the URL, when known */
  constructor(subscriberId: string, secretName?: string) {
    const holder = secretName === undefined ? 'the webhook URL' : `${secretName}`;
    super(
      `Slack subscriber "${subscriberId}": ${holder} does not hold an http:// or https:// URL (a Slack incoming-webhook URL)`,
      subscriberId,
    );
  }
}

/** A Slack app subscriber whose bot token cannot go in a header. The value is never quoted. */
export class SlackBotTokenError extends SubscriberConfigError {
  constructor(subscriberId: string, secretName: string) {
    super(
      `Slack subscriber "${subscriberId}": ${secretName} does not hold a bot token (one line, e.g. xoxb-…, from the Slack app's OAuth & Permissions page)`,
      subscriberId,
    );
  }
}

/**
 * An attempt's outcome could not be recorded in the outbox (the state file busy, the disk full). The
 * outcome is held, and recorded before anything more is sent to that subscriber, so it is not sent again;
 * a later run records it.
 */
export class DeliveryRecordError extends TransientError {
  readonly subscriberId: string;
  readonly eventId: string;

  constructor(subscriberId: string, eventId: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`subscriber "${subscriberId}": could not record the outcome of event ${eventId}: ${detail}`, {
      cause,
    });
    this.subscriberId = subscriberId;
    this.eventId = eventId;
  }
}

/** A digest, or one part of it, that could not be queued this time; the next look tries its period again. */
export class DigestNotQueuedError extends TransientError {
  readonly subscriberId: string;
  /** The digest's (or part's) id; absent when the organization's event log could not be read. */
  readonly eventId: string | undefined;

  constructor(failure: {
    subscriberId: string;
    organizationId: string;
    digestId?: string;
    part?: string;
    reason: string;
  }) {
    const what =
      failure.digestId === undefined
        ? `digests of organization ${failure.organizationId}`
        : `digest ${failure.part === undefined ? '' : `${failure.part} `}${failure.digestId}`;
    super(
      `subscriber "${failure.subscriberId}": ${what} not queued: ${failure.reason}; looked at again shortly`,
    );
    this.subscriberId = failure.subscriberId;
    this.eventId = failure.digestId;
  }
}
