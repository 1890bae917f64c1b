// `meal-notifier status --config FILE`: how the local runner is doing, from its state file alone, so it
// works without the secrets and while the runner is running. With `--stack NAME`, how a deployed stack is
// doing, from its state table and the depths of its queues. The exit code is the health verdict (the same
// as the runner's /healthz), so a monitor or a process manager can run it.
import { Command } from 'commander';
import type { Config } from '../../shared/config/configSchema.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import { collectStackStatus } from '../../shared/operations/collectStackStatus.js';
import { assessHealth } from '../../shared/operations/healthVerdict.js';
import type { StatusReport } from '../../shared/operations/statusReport.js';
import {
  onDeployedStack,
  requireStackFor,
  type StackOptions,
  withStackOptions,
} from '../aws/stackOptions.js';
import { EXIT_FAILURE } from '../errors.js';
import { STACK_CONFIG, withConfigOption } from '../flags.js';
import { stdoutSink } from '../output/outputSink.js';
import { outputWidth } from '../output/outputWidth.js';
import { formatStatus } from '../output/statusTables.js';
import { openLocalState, statePathOf } from '../runtime/localRuntime.js';
import { collectStatus, stateFileExists } from '../status/collectStatus.js';

interface StatusOptions extends StackOptions {
  config: string;
  json?: boolean;
}

export function statusCommand(): Command {
  return withStackOptions(
    withConfigOption(
      new Command('status').description(
        'Show each organization’s polling health and each subscriber’s queued and dead deliveries',
      ),
      STACK_CONFIG,
    ).option('--json', 'print one JSON object on stdout'),
  )
    .addHelpText(
      'after',
      `
Per organization: last successful poll, consecutive failures and the last error, snapshots held, events
in the last hour and day. Per subscriber: deliveries queued and dead, and whether it was disabled.
Locally it reads the state file only: no secrets are needed and no request is made.
With --stack it reads the stack's state table and its queues' depths (nothing is taken off a queue), and
the publisher's failure queue. Slack and webhook subscribers share one queue per channel type: what waits
there is counted once, as the channel's; each subscriber's own count is its dead letters.

Exit code 0 when healthy: no organization overdue (a successful cycle within max(2 min, 2 poll intervals
- 2 min), the interval its pace last chose, at least pollIntervalSeconds: the rule the AWS "not polled"
alarm reads too), no dead letter, no disabled subscriber, and
with --stack no batch the publisher gave up on and nothing that could not be read. Otherwise 1, with one
line per problem (in --json: "health": {"healthy": false, "problems": [...]}). On a stack deployed with
-c polling=off, organizations are not counted.

Examples:
  $ meal-notifier status --config notifier.json
  $ meal-notifier status --config notifier.json --json | jq '.organizations[] | select(.consecutiveFailures > 0)'
  $ meal-notifier status --config notifier.json > /dev/null || echo "notifier unhealthy"
  $ meal-notifier status --config notifier.json --stack MealOrderNotifier --region eu-west-1`,
    )
    .action(async (options: StatusOptions) => {
      requireStackFor(options);
      const now = Date.now();
      const config = await loadConfigFile(options.config);
      const report =
        options.stack === undefined
          ? await localStatus(config, options.config, now)
          : await stackStatus(config, { ...options, stack: options.stack }, now);
      const health = assessHealth(report, now);
      const stdout = stdoutSink();
      if (options.json) stdout.json({ ...report, health }, 2);
      else stdout.text(formatStatus(report, health, now, outputWidth()));
      if (!health.healthy) process.exitCode = EXIT_FAILURE;
    });
}

async function localStatus(config: Config, configPath: string, now: number): Promise<StatusReport> {
  const statePath = statePathOf(config, configPath);
  if (!stateFileExists(statePath)) return collectStatus(config, statePath, undefined, now);
  const state = await openLocalState(configPath);
  try {
    return await collectStatus(state.config, state.statePath, state, now);
  } finally {
    await state.close();
  }
}

async function stackStatus(
  config: Config,
  options: StackOptions & { stack: string },
  now: number,
): Promise<StatusReport> {
  return onDeployedStack(options, config, (stack) =>
    collectStackStatus(
      config,
      {
        stackName: stack.resources.stackName,
        tableName: stack.resources.tableName,
        pollingEnabled: stack.resources.pollingEnabled,
        store: stack.store,
        subscriberStatus: stack.subscriberStatus,
        queues: stack.queues,
        publisherFailures: stack.failureQueue,
      },
      now,
    ),
  );
}
