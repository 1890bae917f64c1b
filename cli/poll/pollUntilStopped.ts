// `poll` without --once: runs until SIGINT or SIGTERM, then prints a summary of the run. The caller opens
// the runtime with the same stop signal, so budget waits and retry backoffs end with it.
import type { Logger } from '../logging/logger.js';
import { cycleFailureRecord } from '../output/cycleFailureRecord.js';
import { runSummaryRecord, type SummaryRow } from '../output/runSummary.js';
import type { LocalRuntime } from '../runtime/localRuntime.js';
import type { OutboxTally } from '../runtime/outboxTally.js';
import type { RunTally } from '../runtime/runTally.js';
import { runUntilStopped } from '../runtime/runUntilStopped.js';
import { RunnerStoppingError } from '../runtime/stoppableSleep.js';
import type { PollReporter } from './pollReporter.js';

export interface PollUntilStoppedOptions {
  runtime: LocalRuntime;
  reporter: PollReporter;
  logger: Logger;
  outbox: OutboxTally;
  run: RunTally;
  stop: AbortSignal;
}

export async function pollUntilStopped(options: PollUntilStoppedOptions): Promise<void> {
  const { runtime, reporter, logger, outbox, run, stop } = options;
  logger.log({
    level: 'info',
    kind: 'lifecycle',
    message: `Polling ${describeOrganizations(runtime)}; state in ${runtime.statePath}. Stop with Ctrl-C or SIGTERM.`,
    fields: {
      event: 'started',
      statePath: runtime.statePath,
      organizations: runtime.organizations.map(({ organization }) => ({
        organization: organization.name,
        organizationId: organization.id,
        pollIntervalSeconds: organization.pollIntervalSeconds,
      })),
    },
  });
  await runUntilStopped(
    runtime,
    {
      onReport: (_entry, report) => reporter.cycle(report),
      onCycleError: ({ organization }, error) => {
        // Stopped while the cycle waited for budget or a retry: nothing failed.
        if (error instanceof RunnerStoppingError) return;
        run.recordCycleError(organization.id);
        logger.log(cycleFailureRecord(organization, error));
      },
      onCleanupFailure: (failure) => reporter.cleanupFailure(failure),
      onDelivery: (report) => reporter.delivery(report),
      onCatchUp: (report) => reporter.catchUp(report),
      onDeliveryError: (error) => reporter.deliveryError(error),
      onDeliveryStandby: (holder) => reporter.deliveryStandby(holder),
    },
    stop,
  );
  const counts = await outbox.countsByOrganization();
  const rows: SummaryRow[] = run
    .organizations()
    .map((tally) => ({ ...tally, ...(counts.get(tally.id) ?? { queued: 0, dead: 0 }) }));
  logger.log(runSummaryRecord(rows, Date.now() - run.startedAt));
}

function describeOrganizations(runtime: LocalRuntime): string {
  const each = runtime.organizations.map(({ organization }) =>
    // Under `auto` a hot window around a closing time polls faster than pollIntervalSeconds, as the budget allows.
    (organization.cadence ?? 'auto') === 'auto'
      ? `${organization.name} at most every ${organization.pollIntervalSeconds} s, faster around closing times (cadence auto)`
      : `${organization.name} at most every ${organization.pollIntervalSeconds} s`,
  );
  return each.join(', ');
}
