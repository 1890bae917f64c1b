// Queues the e-mail digests whose period has ended, while this runner delivers the outbox: a look every
// few seconds, so a digest goes out within seconds of its period's end. Each period is built once per
// process; a restart builds it again, and the store refuses the copy by its id. A digest too big for one
// e-mail goes as numbered parts (EMAIL_DIGEST_LIMIT); a part that could not be queued is reported and its
// period looked at again on the next tick, while every other digest is queued all the same.

import { digestSubscribers } from '../../shared/config/digestSubscribers.js';
import type { DeliveryOutbox } from '../../shared/delivery/deliveryOutbox.js';
import { type DigestTickResult, queueDueDigests } from '../../shared/delivery/digest/queueDueDigests.js';
import { EMAIL_DIGEST_LIMIT } from '../../shared/delivery/email/digestEmailLimit.js';
import type { LocalRuntime } from './localRuntime.js';

/** How often ended periods are looked for. */
export const DIGEST_CHECK_MS = 5_000;

export interface DigestTicker {
  /** Queues what is due now: the digests (or parts) queued, and those that could not be. */
  tick(): Promise<Pick<DigestTickResult, 'queued' | 'failed'>>;
}

export function digestTicker(
  runtime: Pick<LocalRuntime, 'config' | 'store'> & { store: { outbox: DeliveryOutbox } },
  clock: () => number = Date.now,
): DigestTicker | undefined {
  const { config, store } = runtime;
  if (digestSubscribers(config.subscribers).length === 0) return undefined;
  const examined = new Set<string>();
  return {
    async tick() {
      const result = await queueDueDigests({
        subscribers: config.subscribers,
        organizations: config.organizations,
        store,
        nowMs: clock(),
        limits: [EMAIL_DIGEST_LIMIT],
        skip: (id) => examined.has(id),
      });
      const retry = new Set(result.failed.flatMap((failure) => failure.periodDigestIds));
      for (const plan of result.examined) if (!retry.has(plan.digestId)) examined.add(plan.digestId);
      return { queued: result.queued, failed: result.failed };
    },
  };
}
