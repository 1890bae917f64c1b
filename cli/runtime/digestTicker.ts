// Queues the e-mail digests whose period has ended, while this runner delivers the outbox: a look every
// few seconds, so a digest goes out within seconds of its period's end. Each period is built once per
// process; a restart builds it again, and the store refuses the copy by its id.

import { digestSubscribers } from '../../shared/config/digestSubscribers.js';
import type { DeliveryOutbox } from '../../shared/delivery/deliveryOutbox.js';
import { queueDueDigests } from '../../shared/delivery/digest/queueDueDigests.js';
import type { DigestEvent } from '../../shared/events/digestEvent.js';
import type { LocalRuntime } from './localRuntime.js';

/** How often ended periods are looked for. */
export const DIGEST_CHECK_MS = 5_000;

export interface DigestTicker {
  /** Queues what is due now; the digests queued. */
  tick(): Promise<DigestEvent[]>;
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
        skip: (id) => examined.has(id),
      });
      for (const plan of result.examined) examined.add(plan.digestId);
      return result.queued;
    },
  };
}
