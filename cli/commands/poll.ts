// `meal-notifier poll`: the local runner. Polls every organization of the config, records transitions in
// the SQLite state file and delivers them to the subscribers. Its lines for people (or JSON log records)
// go to stderr; stdout carries data only, the events as CloudEvent JSON lines, and only when asked. With
// --metrics-port it also serves /metrics (Prometheus) and /healthz for a monitor and a process manager.
import { Command, Option } from 'commander';
import { highlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import { CliUsageError } from '../errors.js';
import { integerFlag, withConfigOption } from '../flags.js';
import { createLogger, parseLogFormat } from '../logging/logFormatOption.js';
import type { Logger } from '../logging/logger.js';
import { QuietLogger } from '../logging/quietLogger.js';
import { DEFAULT_METRICS_HOST, type MetricsEndpoint, startMetricsServer } from '../metrics/metricsServer.js';
import type { PollerMetrics } from '../metrics/pollerMetrics.js';
import { attemptRecord } from '../output/attemptLine.js';
import { stderrSink } from '../output/outputSink.js';
import { PLAIN } from '../output/terminalStyle.js';
import { openEventSink } from '../poll/eventSink.js';
import { pollOnce } from '../poll/pollOnce.js';
import { PollReporter } from '../poll/pollReporter.js';
import { pollUntilStopped } from '../poll/pollUntilStopped.js';
import { onOutputClosed } from '../runtime/closedOutput.js';
import { type LocalRuntime, openLocalRuntime } from '../runtime/localRuntime.js';
import { OutboxTally } from '../runtime/outboxTally.js';
import { RunTally } from '../runtime/runTally.js';
import { stopOnSignals } from '../runtime/stopOnSignals.js';
import { collectStatus } from '../status/collectStatus.js';

interface PollOptions {
  config: string;
  once?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  events?: string;
  logFormat: string;
  metricsPort?: string;
  metricsHost?: string;
}

export function pollCommand(): Command {
  return withConfigOption(
    new Command('poll').description(
      'Poll the Admin API for every organization in the config and deliver each order transition',
    ),
  )
    .option('--once', 'run one cycle for every organization, then exit (non-zero if any organization failed)')
    .option(
      '--events <file>',
      'also write each new event as one CloudEvent JSON line: "-" for stdout, or a file to append to',
    )
    .option('--verbose', 'also report every API request (endpoint, status, time taken, retries)')
    .addOption(
      new Option(
        '--quiet',
        'report warnings and errors only (no cycle, event, delivery or summary lines)',
      ).conflicts('verbose'),
    )
    .option('--log-format <format>', 'stderr lines as "human" text or "json" (one object per line)', 'human')
    .option(
      '--metrics-port <port>',
      'serve /metrics (Prometheus) and /healthz on this port (0: any free one; the start-up line says which)',
    )
    .option(
      '--metrics-host <host>',
      `address to serve them on (default: ${DEFAULT_METRICS_HOST}, this machine only)`,
    )
    .addHelpText(
      'after',
      `
Events are delivered to the config's subscribers. Everything the runner says is on stderr, for people:
one line per event it detects and per delivery attempt (in the demo's columns), one status line per
organization and cycle (requests used and left of the token's budget, orders seen, events, deliveries
queued or dead), one per failure, and a summary when the runner stops. --log-format json writes each of
them as one JSON object per line; --quiet keeps only the warnings and errors.
stdout is for data: the events themselves, one CloudEvent 1.0 JSON line each, go there only with
--events - (or append to a file with --events FILE), so they can be piped while the terminal stays
readable. If stdout's reader goes away (| head), the runner stops as on SIGTERM and exits 0.

Without --once the runner keeps polling each organization every pollIntervalSeconds (with ±10 % jitter)
until SIGINT or SIGTERM; it then finishes the cycle and delivery attempts in flight and exits 0 (a second
signal exits at once). With --once, deliveries that fail are retried while a retry falls due within 30 s;
the rest stay queued for the next run (see: meal-notifier deliveries).
The first cycle of an organization is a silent baseline unless it sets "emitExisting": true.

--metrics-port N serves, while the runner runs, GET /metrics (Prometheus text format: cycles, failures,
requests and budget, orders seen, events by type, deliveries by subscriber and outcome, queue depths,
detection and delivery latency) and GET /healthz: 200 "ok", or 503 with one line per problem, the same
verdict meal-notifier status exits with (no organization overdue, by the rule the AWS "not polled" alarm
reads too; no dead letter, no disabled subscriber). A line on stderr gives the address once it listens.

Examples:
  $ NORTH_TOKEN=… meal-notifier poll --config notifier.json --once
  $ meal-notifier poll --config notifier.json --events events.jsonl
  $ meal-notifier poll --config notifier.json --events - | jq -c '{type, subject}'
  $ meal-notifier poll --config notifier.json --quiet --log-format json 2>> notifier.log
  $ meal-notifier poll --config notifier.json --metrics-port 9464   # then: curl -s 127.0.0.1:9464/healthz`,
    )
    .action(async (options: PollOptions) => {
      const metricsAt = metricsAddress(options);
      const format = parseLogFormat(options.logFormat);
      const stderr = stderrSink();
      const written = createLogger(format, stderr);
      const logger: Logger = options.quiet ? new QuietLogger(written) : written;
      // Opened before anything else, so a path that cannot be written stops the command at once.
      const events = openEventSink(options.events, (message) =>
        logger.log({ level: 'error', kind: 'failure', message, fields: { error: message } }),
      );
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
      // A reader gone (| head -1) stops the runner gracefully; `--once` just finishes its run.
      const stopListeningForClosedOutput = onOutputClosed((closed) => {
        if (!stop || stop.signal.aborted) return;
        logger.log({
          level: 'info',
          kind: 'lifecycle',
          message: `${closed} closed: finishing the cycle and delivery attempts in flight, then stopping`,
          fields: { event: 'stopping', closed },
        });
        stop.requestStop();
      });
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
          const outbox = new OutboxTally(runtime);
          const run = new RunTally(runtime.config.organizations, Date.now());
          const budgetPerMinute = runtime.config.api.requestsPerMinute;
          const served = metricsAt
            ? await serveMetrics(runtime, run, budgetPerMinute, metricsAt, logger)
            : undefined;
          const reporter = new PollReporter({
            logger,
            outbox,
            run,
            writeEvent: (event) => events.write(event),
            // Colour only for a person at a terminal: never inside a JSON record or a log file.
            style: format === 'human' ? stderr.style : PLAIN,
            budgetPerMinute,
            highlightWords: highlightWordsOf(runtime.config.organizations),
            ...(served ? { latencies: served.metrics } : {}),
          });
          if (!stop) {
            if (!(await pollOnce(runtime, reporter))) process.exitCode = 1;
            return;
          }
          try {
            await pollUntilStopped({ runtime, reporter, logger, outbox, run, stop: stop.signal });
          } finally {
            // Before the state file closes: a scrape reads it.
            await served?.endpoint.close();
          }
        } finally {
          await runtime.close();
        }
      } finally {
        stopListeningForClosedOutput();
        stop?.dispose();
        events.close();
      }
    });
}

/** Where to serve the metrics, checked before anything starts; undefined without --metrics-port. */
function metricsAddress(options: PollOptions): { host: string; port: number } | undefined {
  if (options.metricsPort === undefined) {
    if (options.metricsHost !== undefined) throw new CliUsageError('--metrics-host needs --metrics-port');
    return undefined;
  }
  if (options.once) {
    throw new CliUsageError('--metrics-port serves the long-running runner; leave out --once');
  }
  return {
    host: options.metricsHost ?? DEFAULT_METRICS_HOST,
    port: integerFlag('--metrics-port', options.metricsPort, 0, 65_535),
  };
}

/** prom-client is loaded only by a runner that serves metrics: every other command starts without it. */
async function serveMetrics(
  runtime: LocalRuntime,
  run: RunTally,
  budgetPerMinute: number,
  where: { host: string; port: number },
  logger: Logger,
): Promise<{ metrics: PollerMetrics; endpoint: MetricsEndpoint }> {
  const { PollerMetrics } = await import('../metrics/pollerMetrics.js');
  const metrics = new PollerMetrics({
    run,
    status: () => collectStatus(runtime.config, runtime.statePath, runtime, Date.now()),
    budgetPerMinute,
  });
  const endpoint = await startMetricsServer(metrics, where);
  logger.log({
    level: 'info',
    kind: 'lifecycle',
    message: `Metrics on ${endpoint.url}/metrics, health on ${endpoint.url}/healthz`,
    fields: { event: 'metrics_listening', url: endpoint.url },
  });
  return { metrics, endpoint };
}
