// The long-running runner: the poll scheduler and the delivery engine side by side until the stop signal.
// Both finish what they are doing first (the cycle in flight with its commits, each subscriber's attempt
// in flight with its outcome recorded) and only then does this resolve, so the caller can close the
// state file knowing nothing still writes to it.
import { setTimeout as delay } from 'node:timers/promises';
import { DigestNotQueuedError } from '../../shared/delivery/errors.js';
import {
  type CatchUpReport,
  type DeliveryReport,
  OutboxDelivery,
} from '../../shared/delivery/outboxDelivery.js';
import type { CycleCleanupError } from '../../shared/poll/errors.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import { claimDelivery, renewDelivery } from './deliveryLease.js';
import { DIGEST_CHECK_MS, digestTicker } from './digestTicker.js';
import type { LocalRuntime, OrganizationRuntime } from './localRuntime.js';
import { runPollCycle } from './pollCycle.js';
import { runPollScheduler } from './pollScheduler.js';

export interface RunnerHooks {
  onReport(entry: OrganizationRuntime, report: PollReport): void | Promise<void>;
  onCycleError(entry: OrganizationRuntime, error: unknown): void;
  /** A step after a cycle failed on its own; the cycle's report or error is told apart. */
  onCleanupFailure(failure: CycleCleanupError): void;
  onDelivery(report: DeliveryReport): void;
  onCatchUp?(report: CatchUpReport): void;
  onDeliveryError(error: unknown): void;
  /** Another live runner delivers this state file's outbox; told once. */
  onDeliveryStandby(holder: string | undefined): void;
}

/** How often the delivering runner renews its lease, and a standing-by one looks whether it is free. */
const DELIVERY_LEASE_CHECK_MS = 10_000;

export async function runUntilStopped(
  runtime: LocalRuntime,
  hooks: RunnerHooks,
  stop: AbortSignal,
): Promise<void> {
  const delivery = new OutboxDelivery({
    outbox: runtime.outbox,
    senders: runtime.senders,
    clock: Date.now,
    onDelivery: hooks.onDelivery,
    onError: hooks.onDeliveryError,
    catchUps: runtime.catchUps,
    ...(hooks.onCatchUp ? { onCatchUp: hooks.onCatchUp } : {}),
  });
  const results = await Promise.allSettled([
    runPollScheduler({
      // One lock per request budget, that is per token.
      organizations: runtime.organizations.map((entry) => ({
        ...entry,
        lockKey: entry.client.budget.key,
        tokenRequestsPerMinute: entry.client.budget.usablePerMinute,
      })),
      runCycle: (entry) => runPollCycle(runtime, entry, hooks.onCleanupFailure),
      onReport: async (entry, report) => {
        // New events are queued: deliver them now rather than at the engine's next look.
        if (report.events.length > 0) delivery.wake();
        await hooks.onReport(entry, report);
      },
      onError: (entry, error) => hooks.onCycleError(entry, error),
      stop,
    }),
    deliverWhileLeased(runtime, delivery, hooks, stop),
  ]);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

/** Runs the delivery engine while this runner holds the outbox's lease; stands by while another does. */
async function deliverWhileLeased(
  runtime: LocalRuntime,
  delivery: OutboxDelivery,
  hooks: RunnerHooks,
  stop: AbortSignal,
): Promise<void> {
  let toldStandby = false;
  while (!stop.aborted) {
    try {
      const claim = await claimDelivery(runtime);
      if (claim.held) {
        const renew = setInterval(
          () => void renewDelivery(runtime).catch(hooks.onDeliveryError),
          DELIVERY_LEASE_CHECK_MS,
        );
        const digests = digestTicker(runtime);
        const queueDigests = async () => {
          try {
            const result = await digests?.tick();
            if (result === undefined) return;
            if (result.queued.length > 0) delivery.wake();
            for (const failure of result.failed) hooks.onDeliveryError(new DigestNotQueuedError(failure));
          } catch (error) {
            hooks.onDeliveryError(error);
          }
        };
        const digestTimer = digests ? setInterval(() => void queueDigests(), DIGEST_CHECK_MS) : undefined;
        void queueDigests();
        try {
          await delivery.run(stop);
        } finally {
          clearInterval(renew);
          clearInterval(digestTimer);
        }
        return;
      }
      if (!toldStandby) hooks.onDeliveryStandby(claim.holder);
      toldStandby = true;
    } catch (error) {
      hooks.onDeliveryError(error);
    }
    await delay(DELIVERY_LEASE_CHECK_MS, undefined, { signal: stop }).catch(() => {});
  }
}
