// Where the secret references sit in a parsed config, so they can be resolved up front or checked.
import { jsonPath } from './configProblems.js';
import { type Config, type SubscriberConfig, slackSecretOf } from './configSchema.js';
import type { SecretRef } from './secretRef.js';

export interface SecretReference {
  /** JSON path of the reference in the config file, e.g. `$.organizations[0].token`. */
  path: string;
  ref: SecretRef;
}

/** The secrets a subscriber needs to deliver: signing secrets, the Slack webhook URL or bot token. */
export function subscriberSecrets(subscriber: SubscriberConfig): SecretRef[] {
  switch (subscriber.type) {
    case 'webhook':
      return [...subscriber.secret];
    case 'slack':
      return [slackSecretOf(subscriber).ref];
    case 'email':
      // E-mail goes through the shared SMTP server, whose URL is `smtp.url`.
      return [];
  }
}

/**
 * The JSON path of each subscriber of `subscribers` (the config's list), by id, e.g. `$.subscribers[2]`:
 * messages about a subscriber's secret point into the file the way check-config does.
 */
export function subscriberPathIn(subscribers: readonly SubscriberConfig[]): (subscriberId: string) => string {
  return (subscriberId) => {
    const index = subscribers.findIndex(({ id }) => id === subscriberId);
    return index < 0 ? jsonPath(['subscribers']) : jsonPath(['subscribers', index]);
  };
}

/**
 * The JSON path of a subscriber by its id, `$.subscribers[?@.id=='pos']` (RFC 9535's filter): for a function
 * whose config holds only some of the file's subscribers (an AWS delivery function keeps those of its type),
 * where an index would point at another subscriber of the file.
 */
export function subscriberPathById(subscriberId: string): string {
  return `$.subscribers[?@.id=='${subscriberId}']`;
}

/** Where a webhook's signing secret sits: a single one is written without a list, and pointed at that way. */
export function signingSecretPath(at: string, secrets: readonly SecretRef[], position: number): string {
  return secrets.length === 1 ? `${at}.secret` : `${at}.secret[${position}]`;
}

/** Every secret reference in the config, in document order. */
export function secretReferences(config: Config): SecretReference[] {
  const references: SecretReference[] = [];
  config.organizations.forEach((organization, index) => {
    references.push({ path: jsonPath(['organizations', index, 'token']), ref: organization.token });
  });
  config.subscribers.forEach((subscriber, index) => {
    const at = ['subscribers', index];
    if (subscriber.type === 'webhook') {
      subscriber.secret.forEach((ref, position) => {
        references.push({ path: signingSecretPath(jsonPath(at), subscriber.secret, position), ref });
      });
    } else if (subscriber.type === 'slack') {
      const { field, ref } = slackSecretOf(subscriber);
      references.push({ path: jsonPath([...at, field]), ref });
    }
  });
  if (config.smtp) references.push({ path: jsonPath(['smtp', 'url']), ref: config.smtp.url });
  return references;
}
