// Queues the e-mail digests whose period has ended, while this runner delivers the outbox: a look every
// few seconds, so a digest goes out within seconds of its period's end. Each period is built once per
// process; a restart builds it again, and the store refuses the copy by its id. A digest too big for one
// e-mail goes as numbered parts (EMAIL_DIGEST_LIMIT); a part that could not be queued is reported and its
// period looked at again later, while every other digest is queued all the same. The wait doubles from one
// look to the next failed one, up to 5 minutes: a lasting fault (a full disk, a digest that cannot be built)
// is reported a dozen times an hour, not every few seconds.

import { digestSubscribers } from '../../shared/config/digestSubscribers.js';
import { type DigestTickResult, queueDueDigests } from '../../shared/delivery/digest/queueDueDigests.js';
import { EMAIL_DIGEST_LIMIT } from '../../shared/delivery/email/digestEmailLimit.js';
import type { LocalRuntime } from './localRuntime.js';

/** How often ended periods are looked for. */
export const DIGEST_CHECK_MS = 5_000;
/** The longest wait before a period that could not be queued is looked at again. */
export const DIGEST_RETRY_MAX_MS = 5 * 60_000;

export interface DigestTicker {
  /** Queues what is due now: the digests (or parts) queued, and those that could not be. */
  tick(): Promise<Pick<DigestTickResult, 'queued' | 'failed'>>;
}

export function digestTicker(
  runtime: Pick<LocalRuntime, 'config' | 'digests'>,
  clock: () => number = Date.now,
): DigestTicker | undefined {
  const { config, digests } = runtime;
  if (digestSubscribers(config.subscribers).length === 0) return undefined;
  const examined = new Set<string>();
  /** Periods that could not be queued: when to look again, and the wait that led there. */
  const retries = new Map<string, { at: number; waitMs: number }>();
  return {
    async tick() {
      const now = clock();
      const result = await queueDueDigests({
        subscribers: config.subscribers,
        organizations: config.organizations,
        store: digests,
        nowMs: now,
        limits: [EMAIL_DIGEST_LIMIT],
        skip: (id) => examined.has(id) || (retries.get(id)?.at ?? 0) > now,
      });
      const failed = new Set(result.failed.flatMap((failure) => failure.periodDigestIds));
      for (const plan of result.examined) {
        if (!failed.has(plan.digestId)) {
          examined.add(plan.digestId);
          retries.delete(plan.digestId);
          continue;
        }
        const waitMs = Math.min(
          2 * (retries.get(plan.digestId)?.waitMs ?? DIGEST_CHECK_MS / 2),
          DIGEST_RETRY_MAX_MS,
        );
        retries.set(plan.digestId, { at: now + waitMs, waitMs });
      }
      return { queued: result.queued, failed: result.failed };
    },
  };
}
