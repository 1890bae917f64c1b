// `meal-notifier poll`: the local runner. Polls every organization of the config, records transitions in
// the SQLite state file, and prints each new event as one JSON line on stdout.
import { Command } from 'commander';
import { defaultSleep } from '../../shared/api/requestBudget.js';
import { deliverUntilSettled } from '../../shared/delivery/deliverUntilSettled.js';
import type { DrainDependencies } from '../../shared/delivery/drainOutbox.js';
import { runDeliveryLoop } from '../../shared/delivery/runDeliveryLoop.js';
import { formatDeliveryReportLine } from '../output/deliveryReportLine.js';
import { openLocalRuntime } from '../runtime/localRuntime.js';
import type { PollOutput } from '../runtime/pollCycle.js';
import { runPollCycle } from '../runtime/pollCycle.js';
import { runPollScheduler } from '../runtime/pollScheduler.js';

/** How long `--once` waits for retries that fall due soon (the schedule's 5 s step, a short Retry-After). */
const ONCE_DELIVERY_WINDOW_MS = 30_000;

interface PollOptions {
  config: string;
  once?: boolean;
  verbose?: boolean;
}

export function pollCommand(): Command {
  return new Command('poll')
    .description('Poll the Admin API for every organization in the config and deliver each order transition')
    .requiredOption('--config <file>', 'config file (JSON)')
    .option('--once', 'run one cycle for every organization, then exit (non-zero if any organization failed)')
    .option('--verbose', 'report every request on stderr')
    .addHelpText(
      'after',
      `
Events are delivered to the config's subscribers and printed on stdout as JSON lines (CloudEvents 1.0);
status and delivery lines go to stderr. With --once, deliveries that fail are retried while a retry falls
due within 30 s; the rest stay queued for the next run (see: meal-notifier deliveries).
The first cycle of an organization is a silent baseline unless it sets "emitExisting": true.

Examples:
  $ NORTH_TOKEN=… meal-notifier poll --config notifier.json --once
  $ meal-notifier poll --config notifier.json > events.jsonl`,
    )
    .action(async (options: PollOptions) => {
      const runtime = await openLocalRuntime(options.config, {
        ...(options.verbose
          ? {
              onAttempt: (organization, attempt) =>
                process.stderr.write(
                  `[api] ${organization.name} ${attempt.endpoint} attempt ${attempt.attempt}: ` +
                    `${attempt.error?.message ?? attempt.status} (${attempt.durationMs} ms)\n`,
                ),
            }
          : {}),
      });
      const output: PollOutput = {
        event: (line) => process.stdout.write(`${line}\n`),
        status: (line) => process.stderr.write(`${line}\n`),
      };
      const delivery: DrainDependencies = {
        outbox: runtime.store,
        senders: runtime.senders,
        clock: Date.now,
        onDelivery: (report) => output.status(formatDeliveryReportLine(report, Date.now())),
      };
      try {
        if (options.once) {
          let failed = false;
          for (const entry of runtime.organizations) {
            const report = await runPollCycle(runtime, entry, output);
            failed ||= !report.ok;
          }
          await deliverUntilSettled({ ...delivery, windowMs: ONCE_DELIVERY_WINDOW_MS, sleep: defaultSleep });
          if (failed) process.exitCode = 1;
          return;
        }
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          await Promise.all([
            runPollScheduler(runtime, output, stop.signal),
            runDeliveryLoop(delivery, stop.signal),
          ]);
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      } finally {
        await runtime.close();
      }
    });
}
