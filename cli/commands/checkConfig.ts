// `meal-notifier check-config FILE [--ping]`: everything that can be known about a config before running
// it, every problem at once with its JSON path; with --ping, whether each organization's token works.
import { Command } from 'commander';
import { ConfigError } from '../../shared/config/errors.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import { findUnsetRotationSecrets } from '../../shared/config/secretResolver.js';
import { findSetupProblems } from '../checkConfig/findSetupProblems.js';
import { pingOrganizations } from '../checkConfig/pingOrganizations.js';
import { CliUsageError, EXIT_FAILURE } from '../errors.js';
import { configFileOf, configGivenAsFlag, withConfigOption } from '../flags.js';

interface CheckConfigOptions {
  config?: string;
  ping?: boolean;
}

export function checkConfigCommand(): Command {
  return withConfigOption(
    new Command('check-config')
      .description('Validate a config file, its secrets and subscribers; --ping also tries each token')
      .argument('[file]', 'config file (JSON); or give it with --config FILE, or MEAL_NOTIFIER_CONFIG'),
    'config file (JSON), as FILE is',
    { optional: true },
  )
    .option('--ping', 'make one authenticated request (GET /establishments) per organization')
    .addHelpText(
      'after',
      `
Checks the JSON, every key and value, the secret references (naming each environment variable that is
unset, never printing a value) and the subscribers' settings (webhook signing secrets, URLs, the SMTP
URL). Nothing is sent without --ping.

Exit codes: 0 all is well, 2 the config has problems (all listed with their JSON path), 1 a ping failed.

Examples:
  $ meal-notifier check-config notifier.json
  $ meal-notifier check-config --config notifier.json
  $ NORTH_TOKEN=… meal-notifier check-config notifier.json --ping`,
    )
    .action(async (positional: string | undefined, options: CheckConfigOptions, command: Command) => {
      const file = checkedFile(positional, command);
      const config = await loadConfigFile(file);
      const problems = await findSetupProblems(config, process.env);
      if (problems.length > 0) throw new ConfigError(file, problems);
      // Not a problem: a rotation under way. Said, so the operator knows which secret is still to set.
      for (const unset of findUnsetRotationSecrets(config, process.env)) {
        process.stderr.write(
          `warning: ${unset.path}: environment variable ${unset.variable} is not set; subscriber "${unset.subscriberId}" signs with its other secrets until it is\n`,
        );
      }
      const organizations = plural(config.organizations.length, 'organization');
      const subscribers = plural(config.subscribers.length, 'subscriber');
      if (options.ping) {
        const results = await pingOrganizations(config, process.env);
        for (const result of results) {
          process.stdout.write(
            result.ok
              ? `${result.organization}: OK, the token reads this organization (${plural(result.establishments, 'establishment')})\n`
              : `${result.organization}: FAILED, ${result.explanation}\n`,
          );
        }
        const failed = results.filter((result) => !result.ok).length;
        if (failed > 0) {
          process.stderr.write(
            `meal-notifier: ${file}: the config is valid, but ${failed} of ${organizations} failed the ping\n`,
          );
          process.exitCode = EXIT_FAILURE;
          return;
        }
      }
      process.stdout.write(`config OK: ${organizations}, ${subscribers}\n`);
    });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** FILE, --config FILE or MEAL_NOTIFIER_CONFIG: a file named on the command line beats the variable. */
function checkedFile(positional: string | undefined, command: Command): string {
  if (positional === undefined) return configFileOf(command);
  const flag = configGivenAsFlag(command) ? configFileOf(command) : undefined;
  if (flag !== undefined && flag !== positional) {
    throw new CliUsageError(`two config files given, ${positional} and --config ${flag}: give one`);
  }
  return positional;
}
