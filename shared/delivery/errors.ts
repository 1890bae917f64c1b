// Typed delivery failures: each says which subscriber setting or send went wrong and why, so callers
// branch on the class and operators read the reason without digging.

/** A subscriber's settings cannot work; found before any delivery, so startup stops on it. */
export class SubscriberConfigError extends Error {}

/** A subscriber filter that SNS subscription filter policies cannot express (too many keys or combinations). */
export class FilterPolicyError extends SubscriberConfigError {
  /** Why SNS refuses it, in the filter's own key names, e.g. `filter has 180 value combinations; …`. */
  readonly reason: string;

  constructor(reason: string) {
    super(`SNS cannot express this subscriber filter: ${reason}`);
    this.name = new.target.name;
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
  readonly subscriberId: string | undefined;
  readonly secretIndex: number | undefined;

  constructor(problem: string, location: WebhookSecretLocation = {}) {
    const who =
      location.subscriberId === undefined ? 'webhook' : `webhook subscriber "${location.subscriberId}"`;
    const which = location.index === undefined ? 'signing secret' : `signing secret #${location.index + 1}`;
    super(
      `${who}: ${which} ${problem}; expected "whsec_" followed by the base64 of 24 to 64 random bytes (Standard Webhooks)`,
    );
    this.name = new.target.name;
    this.subscriberId = location.subscriberId;
    this.secretIndex = location.index;
  }
}

/** A webhook URL we cannot deliver to. Only its scheme is quoted: paths and queries often carry tokens. */
export class WebhookUrlError extends SubscriberConfigError {
  readonly subscriberId: string;

  constructor(subscriberId: string, problem: string) {
    super(`webhook subscriber "${subscriberId}": ${problem}`);
    this.name = new.target.name;
    this.subscriberId = subscriberId;
  }
}

/** An e-mail subscriber that cannot send at all: no recipients, no sender, or an unusable SMTP URL. */
export class SmtpConfigError extends SubscriberConfigError {
  readonly subscriberId: string;
  /** What is wrong, never quoting the SMTP URL: it carries the password. */
  readonly problem: string;

  constructor(subscriberId: string, problem: string) {
    super(`e-mail subscriber "${subscriberId}": ${problem}`);
    this.name = new.target.name;
    this.subscriberId = subscriberId;
    this.problem = problem;
  }
}
