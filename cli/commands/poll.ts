// `meal-notifier poll`: the local runner. Polls every organization of the config, records transitions in
// the SQLite state file, delivers them to the subscribers, and prints each new event as one JSON line on
// stdout; status, delivery and failure lines go to stderr, readable or as JSON.
import { Command } from 'commander';
import { usablePerMinute } from '../../shared/api/requestBudget.js';
import { withConfigOption } from '../flags.js';
import { createLogger, parseLogFormat } from '../logging/logFormat.js';
import { attemptRecord } from '../output/attemptLine.js';
import { pollOnce } from '../poll/pollOnce.js';
import { PollReporter } from '../poll/pollReporter.js';
import { pollUntilStopped } from '../poll/pollUntilStopped.js';
import { openLocalRuntime } from '../runtime/localRuntime.js';
import { OutboxTally } from '../runtime/outboxTally.js';
import { RunTally } from '../runtime/runTally.js';
import { stopOnSignals } from '../runtime/stopOnSignals.js';

interface PollOptions {
  config: string;
  once?: boolean;
  verbose?: boolean;
  logFormat: string;
}

export function pollCommand(): Command {
  return withConfigOption(
    new Command('poll').description(
      'Poll the Admin API for every organization in the config and deliver each order transition',
    ),
  )
    .option('--once', 'run one cycle for every organization, then exit (non-zero if any organization failed)')
    .option('--verbose', 'also report every API request (endpoint, status, time taken, retries)')
    .option('--log-format <format>', 'stderr lines as "human" text or "json" (one object per line)', 'human')
    .addHelpText(
      'after',
      `
Events are delivered to the config's subscribers and printed on stdout as JSON lines (CloudEvents 1.0).
On stderr: one status line per organization and cycle (requests used and left of the token's budget,
orders seen, events, deliveries queued or dead), one line per delivery attempt and per failure, and a
summary when the runner stops. --log-format json writes each of them as one JSON object per line.

Without --once the runner keeps polling each organization every pollIntervalSeconds (with ±10 % jitter)
until SIGINT or SIGTERM; it then finishes the cycle and delivery attempts in flight and exits 0 (a second
signal exits at once). With --once, deliveries that fail are retried while a retry falls due within 30 s;
the rest stay queued for the next run (see: meal-notifier deliveries).
The first cycle of an organization is a silent baseline unless it sets "emitExisting": true.

Examples:
  $ NORTH_TOKEN=… meal-notifier poll --config notifier.json --once
  $ meal-notifier poll --config notifier.json > events.jsonl
  $ meal-notifier poll --config notifier.json --log-format json 2>> notifier.log`,
    )
    .action(async (options: PollOptions) => {
      const logger = createLogger(parseLogFormat(options.logFormat), process.stderr);
      // Listening before the runtime opens: its budget waits and retry backoffs end with this signal.
      const stop = options.once
        ? undefined
        : stopOnSignals((signal) =>
            logger.log({
              level: 'info',
              kind: 'lifecycle',
              message: `${signal}: finishing the cycle and delivery attempts in flight, then stopping (send it again to stop at once)`,
              fields: { event: 'stopping', signal },
            }),
          );
      try {
        const runtime = await openLocalRuntime(options.config, {
          ...(stop ? { stop: stop.signal } : {}),
          onWarning: (message) =>
            logger.log({ level: 'warn', kind: 'lifecycle', message: `warning: ${message}` }),
          ...(options.verbose
            ? { onAttempt: (organization, attempt) => logger.log(attemptRecord(organization.name, attempt)) }
            : {}),
        });
        try {
          const outbox = new OutboxTally(runtime.store);
          const run = new RunTally(runtime.config.organizations, Date.now());
          const reporter = new PollReporter({
            logger,
            outbox,
            run,
            writeEvent: (line) => process.stdout.write(`${line}\n`),
            // What the budget allows itself: the spec's limit less the safety margin.
            budgetPerMinute: usablePerMinute(runtime.config.api.requestsPerMinute),
          });
          if (!stop) {
            if (!(await pollOnce(runtime, reporter))) process.exitCode = 1;
            return;
          }
          await pollUntilStopped({ runtime, reporter, logger, outbox, run, stop: stop.signal });
        } finally {
          await runtime.close();
        }
      } finally {
        stop?.dispose();
      }
    });
}
