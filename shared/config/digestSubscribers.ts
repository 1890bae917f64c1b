// Which subscribers take a digest, read from the config: the stack deploys the digest function and its
// schedule only when there is one, and both runtimes plan digests for them alone (planDigests.ts).
import type { DigestConfig, SubscriberConfig } from './configSchema.js';

/** The enabled e-mail subscribers that have a digest, with it. */
export function digestSubscribers(
  subscribers: readonly SubscriberConfig[],
): { subscriber: SubscriberConfig; digest: DigestConfig }[] {
  return subscribers.flatMap((subscriber) =>
    subscriber.type === 'email' && subscriber.enabled && subscriber.digest !== undefined
      ? [{ subscriber, digest: subscriber.digest }]
      : [],
  );
}
