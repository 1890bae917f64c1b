// The long-running local runner's poll loop: each organization on its own interval (with jitter, so
// organizations sharing a token drift apart), organizations sharing a token taking turns, until the stop
// signal. A cycle in flight when the signal comes always finishes, so its commits are whole.
import { setTimeout as delay } from 'node:timers/promises';
import type { PollReport } from '../../shared/poll/pollOrganization.js';
import { KeyedLock } from './keyedLock.js';

/** ±10 % of the interval. */
const JITTER = 0.1;

/** What the scheduler needs of an organization. */
export interface ScheduledOrganization {
  organization: { id: string; name: string; pollIntervalSeconds: number };
  /** Organizations with the same key never poll at the same time (one key per token's budget). */
  lockKey: string;
}

export interface SchedulerOptions<Entry extends ScheduledOrganization> {
  organizations: readonly Entry[];
  runCycle: (entry: Entry) => Promise<PollReport>;
  onReport: (entry: Entry, report: PollReport) => void | Promise<void>;
  /** A cycle that threw (a failing store, a bug); the organization's next cycle tries again. */
  onError: (entry: Entry, error: unknown) => void;
  stop: AbortSignal;
  random?: () => number;
}

export async function runPollScheduler<Entry extends ScheduledOrganization>(
  options: SchedulerOptions<Entry>,
): Promise<void> {
  const { stop } = options;
  const random = options.random ?? Math.random;
  const lock = new KeyedLock();
  await Promise.all(
    options.organizations.map(async (entry) => {
      const intervalMs = entry.organization.pollIntervalSeconds * 1000;
      while (!stop.aborted) {
        await lock.run(entry.lockKey, async () => {
          // The signal may have come while another organization of the token held the turn.
          if (stop.aborted) return;
          try {
            await options.onReport(entry, await options.runCycle(entry));
          } catch (error) {
            // One organization failing must not stop the others.
            options.onError(entry, error);
          }
        });
        const wait = Math.round(intervalMs * (1 - JITTER + 2 * JITTER * random()));
        await delay(wait, undefined, { signal: stop }).catch(() => {});
      }
    }),
  );
}
