// The long-running runner: the poll scheduler and the delivery engine side by side until the stop signal.
// Both finish what they are doing first (the cycle in flight with its commits, each subscriber's attempt
// in flight with its outcome recorded) and only then does this resolve, so the caller can close the
// state file knowing nothing still writes to it.
import { type DeliveryReport, OutboxDelivery } from '../../shared/delivery/outboxDelivery.js';
import type { PollReport } from '../../shared/poll/pollOrganization.js';
import type { LocalRuntime, OrganizationRuntime } from './localRuntime.js';
import { runPollCycle } from './pollCycle.js';
import { runPollScheduler } from './pollScheduler.js';

export interface RunnerHooks {
  onReport(entry: OrganizationRuntime, report: PollReport): void | Promise<void>;
  onCycleError(entry: OrganizationRuntime, error: unknown): void;
  onDelivery(report: DeliveryReport): void;
  onDeliveryError(error: unknown): void;
}

export async function runUntilStopped(
  runtime: LocalRuntime,
  hooks: RunnerHooks,
  stop: AbortSignal,
): Promise<void> {
  const delivery = new OutboxDelivery({
    outbox: runtime.store.outbox,
    senders: runtime.senders,
    clock: Date.now,
    onDelivery: hooks.onDelivery,
    onError: hooks.onDeliveryError,
  });
  const results = await Promise.allSettled([
    runPollScheduler({
      // One lock per request budget, that is per token.
      organizations: runtime.organizations.map((entry) => ({ ...entry, lockKey: entry.client.budget.key })),
      runCycle: (entry) => runPollCycle(runtime, entry),
      onReport: async (entry, report) => {
        // New events are queued: deliver them now rather than at the engine's next look.
        if (report.events.length > 0) delivery.wake();
        await hooks.onReport(entry, report);
      },
      onError: (entry, error) => hooks.onCycleError(entry, error),
      stop,
    }),
    delivery.run(stop),
  ]);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}
