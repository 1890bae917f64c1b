// The long-running local runner's poll loop: for each token, its organizations take turns (longest-unpolled
// first among those due). An organization alone on its token is next due when its pace says; several on
// one token are walked in a round the token paces (takeTurns.ts): no cycle starts before the last one's
// requests are paid for at the token's rate. Until the stop signal. A cycle in flight when the signal comes always finishes, so its commits are whole.
import { setTimeout as delay } from 'node:timers/promises';
import type { PollReport } from '../../shared/poll/pollReport.js';
import { dueAfter, nextTurn, type Turn, tokenFreeAt } from '../../shared/poll/takeTurns.js';

/** After a cycle that threw, how long before that organization is tried again, at the least. */
const RETRY_AFTER_ERROR_MS = 10_000;

/** What the scheduler needs of an organization. */
export interface ScheduledOrganization {
  organization: { id: string; name: string; pollIntervalSeconds: number };
  /** Organizations with the same key take turns (one key per token's budget). */
  lockKey: string;
  /** What the token may send a minute: spaces the round's cycles. @default unpaced (the pace alone) */
  tokenRequestsPerMinute?: number;
}

export interface SchedulerOptions<Entry extends ScheduledOrganization> {
  organizations: readonly Entry[];
  runCycle: (entry: Entry) => Promise<PollReport>;
  onReport: (entry: Entry, report: PollReport) => void | Promise<void>;
  /** A cycle that threw (a failing store, a bug); the organization's next cycle tries again. */
  onError: (entry: Entry, error: unknown) => void;
  stop: AbortSignal;
  /** @default Date.now */
  clock?: () => number;
  /** Waits out the gap to the next turn, ending early on `stop`. @default a timer */
  sleep?: (ms: number, stop: AbortSignal) => Promise<void>;
}

export async function runPollScheduler<Entry extends ScheduledOrganization>(
  options: SchedulerOptions<Entry>,
): Promise<void> {
  const clock = options.clock ?? Date.now;
  const byToken = new Map<string, Array<Entry & Turn>>();
  for (const entry of options.organizations) {
    const group = byToken.get(entry.lockKey) ?? [];
    group.push(
      Object.assign(Object.create(null), entry, { dueAt: clock(), lastPolledAt: Number.NEGATIVE_INFINITY }),
    );
    byToken.set(entry.lockKey, group);
  }
  await Promise.all([...byToken.values()].map((group) => takeTurns(group, options, clock)));
}

async function takeTurns<Entry extends ScheduledOrganization>(
  group: Array<Entry & Turn>,
  options: SchedulerOptions<Entry>,
  clock: () => number,
): Promise<void> {
  const { stop } = options;
  let freeAt = Number.NEGATIVE_INFINITY;
  while (!stop.aborted) {
    const turn = nextTurn(group, clock(), freeAt);
    if (!turn) return;
    if (turn.waitMs > 0) {
      await (options.sleep ?? sleepUnlessStopped)(turn.waitMs, stop);
      continue;
    }
    const { entry } = turn;
    const startedAt = clock();
    entry.lastPolledAt = startedAt;
    try {
      const report = await options.runCycle(entry);
      const inRound = group.length > 1 && entry.tokenRequestsPerMinute !== undefined;
      entry.dueAt = dueAfter(report, inRound);
      if (inRound && entry.tokenRequestsPerMinute !== undefined)
        freeAt = tokenFreeAt(startedAt, report.requests, entry.tokenRequestsPerMinute);
      await options.onReport(entry, report);
    } catch (error) {
      // One organization failing must not stop the others.
      entry.dueAt = startedAt + Math.max(RETRY_AFTER_ERROR_MS, entry.organization.pollIntervalSeconds * 1000);
      options.onError(entry, error);
    }
  }
}

function sleepUnlessStopped(ms: number, stop: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal: stop }).catch(() => {});
}
