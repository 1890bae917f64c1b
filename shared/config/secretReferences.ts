// Where the secret references sit in a parsed config, so they can be resolved up front or checked.
import { jsonPath } from './configProblems.js';
import type { Config, SubscriberConfig } from './configSchema.js';
import type { SecretRef } from './secretRef.js';

export interface SecretReference {
  /** JSON path of the reference in the config file, e.g. `$.organizations[0].token`. */
  path: string;
  ref: SecretRef;
}

/** The secrets a subscriber needs to deliver: signing secrets, or the Slack webhook URL. */
export function subscriberSecrets(subscriber: SubscriberConfig): SecretRef[] {
  switch (subscriber.type) {
    case 'webhook':
      return [...subscriber.secret];
    case 'slack':
      return [subscriber.webhookUrl];
    case 'email':
      // E-mail goes through the shared SMTP server, whose URL is `smtp.url`.
      return [];
  }
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
      // A single secret is written without a list, and is pointed at that way.
      subscriber.secret.forEach((ref, position) => {
        const path = subscriber.secret.length === 1 ? [...at, 'secret'] : [...at, 'secret', position];
        references.push({ path: jsonPath(path), ref });
      });
    } else if (subscriber.type === 'slack') {
      references.push({ path: jsonPath([...at, 'webhookUrl']), ref: subscriber.webhookUrl });
    }
  });
  if (config.smtp) references.push({ path: jsonPath(['smtp', 'url']), ref: config.smtp.url });
  return references;
}
