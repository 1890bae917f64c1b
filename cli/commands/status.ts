// `meal-notifier status --config FILE`: how the local runner is doing, from its state file alone, so it
// works without the secrets and while the runner is running.
import { Command } from 'commander';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import { formatStatus } from '../output/statusTables.js';
import { openLocalState, statePathOf } from '../runtime/localRuntime.js';
import { collectStatus, type StatusReport, stateFileExists } from '../status/collectStatus.js';

interface StatusOptions {
  config: string;
  json?: boolean;
}

export function statusCommand(): Command {
  return new Command('status')
    .description('Show each organization’s polling health and each subscriber’s queued and dead deliveries')
    .requiredOption('--config <file>', 'config file (JSON)')
    .option('--json', 'print one JSON object on stdout')
    .addHelpText(
      'after',
      `
Per organization: last successful poll, consecutive failures and the last error, snapshots held, events
in the last hour and day. Per subscriber: deliveries queued and dead, and whether it was disabled.
Reads the state file only: no secrets are needed and no request is made.

Examples:
  $ meal-notifier status --config notifier.json
  $ meal-notifier status --config notifier.json --json | jq '.organizations[] | select(.consecutiveFailures > 0)'`,
    )
    .action(async (options: StatusOptions) => {
      const now = Date.now();
      const config = await loadConfigFile(options.config);
      const statePath = statePathOf(config, options.config);
      let report: StatusReport;
      if (stateFileExists(statePath)) {
        const state = await openLocalState(options.config);
        try {
          report = await collectStatus(state.config, state.statePath, state.store, now);
        } finally {
          await state.close();
        }
      } else {
        report = await collectStatus(config, statePath, undefined, now);
      }
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report, now));
    });
}
