// The secret values a subscriber's sender is built from, through the runtime's resolver (the environment
// locally, Secrets Manager on AWS). During a signing-secret rotation, a webhook secret not set yet is left
// out and named, so delivery goes on signed with those that are: rotation never stops delivery.
import { type SmtpConfig, type SubscriberConfig, slackSecretOf } from '../config/configSchema.js';
import { MissingSecretError, SecretNotSetError } from '../config/errors.js';
import type { SecretRef } from '../config/secretRef.js';
import { signingSecretPath } from '../config/secretReferences.js';
import type { SecretResolver } from '../config/secretResolver.js';

export interface SenderSecrets {
  /** In the subscriber's own order: signing secrets, the Slack webhook URL or bot token, or the SMTP URL. */
  values: string[];
  /** Signing secrets left out because they are not set (only ever some of a webhook's, never all). */
  unset: SecretRef[];
}

/**
 * @param where the subscriber's JSON path in the config, e.g. `$.subscribers[2]`, for the messages
 * @throws MissingSecretError, SecretNotSetError, SecretLookupError: a secret the sender cannot do without
 */
export async function resolveSenderSecrets(
  subscriber: SubscriberConfig,
  smtp: SmtpConfig | undefined,
  resolver: SecretResolver,
  where: string,
): Promise<SenderSecrets> {
  switch (subscriber.type) {
    case 'slack': {
      const { field, ref } = slackSecretOf(subscriber);
      return { values: [await resolver.resolve(ref, `${where}.${field}`)], unset: [] };
    }
    case 'email':
      // The config schema requires smtp whenever an e-mail subscriber exists.
      return smtp
        ? { values: [await resolver.resolve(smtp.url, '$.smtp.url')], unset: [] }
        : { values: [], unset: [] };
    case 'webhook': {
      const outcomes = await Promise.allSettled(
        subscriber.secret.map((ref, index) =>
          resolver.resolve(ref, signingSecretPath(where, subscriber.secret, index)),
        ),
      );
      const values: string[] = [];
      const unset: SecretRef[] = [];
      outcomes.forEach((outcome, index) => {
        if (outcome.status === 'fulfilled') values.push(outcome.value);
        else if (isNotSet(outcome.reason)) unset.push(subscriber.secret[index] as SecretRef);
        // A lookup that failed (permissions, network) says nothing about the rotation: do not sign without it.
        else throw outcome.reason;
      });
      if (values.length === 0) throw (outcomes[0] as PromiseRejectedResult).reason;
      return { values, unset };
    }
  }
}

function isNotSet(error: unknown): boolean {
  return error instanceof MissingSecretError || error instanceof SecretNotSetError;
}
