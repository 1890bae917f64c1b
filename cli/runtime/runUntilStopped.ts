// The long-running runner: the poll scheduler and the delivery loop side by side until the stop signal.
// Both finish what they are doing first (the cycle in flight with its commits, the delivery attempts in
// flight with their outcomes recorded) and only then does this resolve, so the caller can close the
// state file knowing nothing still writes to it.
import { setTimeout as delay } from 'node:timers/promises';
import type { DeliveryReport, DrainDependencies } from '../../shared/delivery/drainOutbox.js';
import { runDeliveryLoop } from '../../shared/delivery/runDeliveryLoop.js';
import type { PollReport } from '../../shared/poll/pollOrganization.js';
import { DeliveryGate } from './deliveryGate.js';
import type { LocalRuntime, OrganizationRuntime } from './localRuntime.js';
import { runPollCycle } from './pollCycle.js';
import { runPollScheduler } from './pollScheduler.js';
import { WakeUp } from './wakeUp.js';

/** After the delivery loop itself failed (the state file busy, say), how long before it starts again. */
const DELIVERY_RESTART_MS = 1_000;
/**
 * Deliveries handed out per round. A round is finished even when the stop signal comes, except for
 * attempts not yet begun, so this only bounds memory, not shutdown.
 */
const DELIVERY_BATCH = 50;

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
  const gate = new DeliveryGate(stop);
  const delivery: DrainDependencies = {
    outbox: gate.outbox(runtime.store),
    senders: gate.senders(runtime.senders),
    clock: Date.now,
    onDelivery: hooks.onDelivery,
    batchSize: DELIVERY_BATCH,
  };
  const wakeUp = new WakeUp();
  const results = await Promise.allSettled([
    runPollScheduler({
      // One lock per request budget, that is per token.
      organizations: runtime.organizations.map((entry) => ({ ...entry, lockKey: entry.client.budget.key })),
      runCycle: (entry) => runPollCycle(runtime, entry),
      onReport: async (entry, report) => {
        // New events are queued: deliver them now rather than at the loop's next look.
        if (report.events.length > 0) wakeUp.wake();
        await hooks.onReport(entry, report);
      },
      onError: (entry, error) => hooks.onCycleError(entry, error),
      stop,
    }),
    keepDelivering(delivery, { gate, wakeUp, stop, onError: hooks.onDeliveryError }),
  ]);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

interface DeliveryControl {
  gate: DeliveryGate;
  wakeUp: WakeUp;
  stop: AbortSignal;
  onError: (error: unknown) => void;
}

async function keepDelivering(deps: DrainDependencies, control: DeliveryControl): Promise<void> {
  const { gate, wakeUp, stop, onError } = control;
  while (!stop.aborted) {
    try {
      // The shared loop runs until its signal: the stop, or a wake-up that restarts it at once.
      await runDeliveryLoop(deps, wakeUp.nextSignal(stop));
    } catch (error) {
      // After the stop signal, the refused send of an attempt not yet begun lands here: expected.
      if (stop.aborted) break;
      onError(error);
      await delay(DELIVERY_RESTART_MS, undefined, { signal: stop }).catch(() => {});
    }
  }
  await gate.settled();
}
