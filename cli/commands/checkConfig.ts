// `meal-notifier check-config FILE [--ping]`: everything that can be known about a config before running
// it, every problem at once with its JSON path, in the file's order; with --ping, whether each
// organization's token works and whether the SMTP server answers.
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { type Config, DEFAULT_STATE_PATH } from '../../shared/config/configSchema.js';
import { ConfigError, type ConfigProblem } from '../../shared/config/errors.js';
import { configProblemsIn, parseConfig, readConfigJson } from '../../shared/config/loadConfig.js';
import { subscriberPathIn } from '../../shared/config/secretReferences.js';
import { findUnsetRotationSecrets } from '../../shared/config/secretResolver.js';
import { emailOnAwsWarnings } from '../../shared/contracts/emailOnAws.js';
import { createUndiciHttpClient } from '../../shared/http/undiciHttpClient.js';
import { StateFileError } from '../../shared/store/errors.js';
import { checkStateFile } from '../../shared/store/sqlite/checkStateFile.js';
import { counted } from '../../shared/text/counted.js';
import { findSetupProblems } from '../checkConfig/findSetupProblems.js';
import { findStatePathProblem } from '../checkConfig/findStatePathProblem.js';
import { pingOrganizations } from '../checkConfig/pingOrganizations.js';
import { pingSlackApps } from '../checkConfig/pingSlackApps.js';
import type { SmtpPingResult } from '../checkConfig/pingSmtp.js';
import { CliUsageError, EXIT_FAILURE } from '../errors.js';
import { configFileOf, configGivenAsFlag, withConfigOption } from '../flags.js';
import { stderrSink, stdoutSink } from '../output/outputSink.js';
import { resolveStatePath } from '../runtime/statePath.js';

interface CheckConfigOptions {
  config?: string;
  ping?: boolean;
}

export function checkConfigCommand(): Command {
  return withConfigOption(
    new Command('check-config')
      .description(
        'Validate a config file, its secrets, subscribers and state path; --ping also tries each token and the SMTP server',
      )
      .argument('[file]', 'config file (JSON); or give it with --config FILE, or MEAL_NOTIFIER_CONFIG'),
    'config file (JSON), as FILE is',
    { optional: true },
  )
    .option(
      '--ping',
      "make one authenticated request (GET /establishments) per organization, ask the SMTP server to answer (no mail is sent), and ask Slack whether each Slack app subscriber's bot token works and the app is in its channel (auth.test, conversations.info; nothing is posted)",
    )
    .addHelpText(
      'after',
      `
Checks the JSON, every key and value, the secret references (naming each environment variable that is
unset, never printing a value), the subscribers' settings (webhook signing secrets, URLs, the SMTP URL)
and that the state file can be written there by this user (run it as the user the runner runs as); a
state file already there is read, never changed, and must be one this version can open.
Nothing is sent without --ping.

Exit codes: 0 all is well, 2 the config (all its problems listed with their JSON path) or the state
file there has a problem, 1 a ping failed.

Examples:
  $ meal-notifier check-config notifier.json
  $ meal-notifier check-config --config notifier.json
  $ NORTH_TOKEN=… meal-notifier check-config notifier.json --ping
  $ meal-notifier send-test --config notifier.json --subscriber office   # then try a subscriber`,
    )
    .action(async (positional: string | undefined, options: CheckConfigOptions, command: Command) => {
      const [stdout, stderr] = [stdoutSink(), stderrSink()];
      const file = checkedFile(positional, command);
      const config = await checkedConfig(file, process.env);
      // Not a problem: a rotation under way. Said, so the operator knows which secret is still to set.
      for (const unset of findUnsetRotationSecrets(config, process.env)) {
        stderr.line(
          `warning: ${unset.path}: environment variable ${unset.variable} is not set; subscriber "${unset.subscriberId}" signs with its other secrets until it is`,
        );
      }
      // Not a problem either: what the same config comes to when the stack deploys it, as synth says it.
      const pathOf = subscriberPathIn(config.subscribers);
      for (const subscriber of config.subscribers) {
        if (subscriber.type !== 'email') continue;
        for (const warning of emailOnAwsWarnings(subscriber)) {
          stderr.line(`warning: ${pathOf(subscriber.id)}: on AWS, ${warning.text}`);
        }
      }
      const organizations = counted(config.organizations.length, 'organization');
      const subscribers = counted(config.subscribers.length, 'subscriber');
      if (options.ping) {
        const [results, smtp, slackApps] = await Promise.all([
          pingOrganizations(config, process.env),
          config.smtp ? pingConfiguredSmtp(config.smtp) : undefined,
          pingSlackApps(config, process.env, createUndiciHttpClient),
        ]);
        for (const result of results) {
          stdout.line(
            result.ok
              ? `${result.organization}: OK, the token reads this organization (${counted(result.establishments, 'establishment')})`
              : // The line every command prints for this failure; the summary below says the ping failed.
                result.failure,
          );
        }
        if (smtp) stdout.line(smtpLine(smtp));
        for (const slackApp of slackApps) stdout.line(slackApp.line);
        const failed = results.filter((result) => !result.ok).length;
        const failedApps = slackApps
          .filter((slackApp) => !slackApp.ok)
          .map((slackApp) => `"${slackApp.subscriber}"`);
        const failures = [
          ...(failed > 0 ? [`${failed} of ${organizations}`] : []),
          ...(smtp && !smtp.ok ? ['the SMTP server'] : []),
          ...(failedApps.length > 0 ? [`Slack app subscriber ${failedApps.join(', ')}`] : []),
        ];
        if (failures.length > 0) {
          stderr.line(
            `meal-notifier: ${file}: the config is valid, but ${failures.join(' and ')} failed the ping`,
          );
          process.exitCode = EXIT_FAILURE;
          return;
        }
      }
      stdout.line(`config OK: ${organizations}, ${subscribers}`);
    });
}

/**
 * The config, once nothing is wrong with it. A config the schema refuses is still searched for unset
 * variables and a state path the runner could not use, so that one run lists every problem the file has.
 * @throws ConfigError listing every problem, in the file's order; StateFileError, the runner's own one
 *   line, when the state file that is there is the only problem
 */
async function checkedConfig(file: string, env: NodeJS.ProcessEnv): Promise<Config> {
  const json = await readConfigJson(file);
  let config: Config;
  try {
    config = parseConfig(json, file, { env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const state = draftStatePath(json);
    const more = state === undefined ? [] : await statePathProblems(state, file);
    throw configProblemsIn(file, json, [...error.problems, ...more]);
  }
  const problems: StatePathProblem[] = [
    ...(await findSetupProblems(config, env)),
    ...(await statePathProblems(config.state.path, file)),
  ];
  const [only] = problems;
  if (problems.length === 1 && only?.openError) throw only.openError;
  if (problems.length > 0) {
    const listed = problems.map(({ openError: _said, ...problem }) => problem);
    throw configProblemsIn(file, json, listed);
  }
  return config;
}

interface StatePathProblem extends ConfigProblem {
  /** Why the file that is there cannot be opened, as the runner would say it. */
  openError?: StateFileError;
}

/**
 * Where the state file is, and, for one that is there, whether this version can open it: read without
 * creating, migrating or writing it.
 */
async function statePathProblems(path: string, file: string): Promise<StatePathProblem[]> {
  const statePath = resolveStatePath(path, file);
  const problem = await findStatePathProblem(statePath);
  if (problem) return [problem];
  if (!existsSync(statePath)) return [];
  try {
    checkStateFile(statePath);
    return [];
  } catch (error) {
    if (!(error instanceof StateFileError)) throw error;
    return [{ path: '$.state.path', message: error.message, openError: error }];
  }
}

/** state.path as written, or its default; undefined when it is malformed (the schema says how). */
function draftStatePath(json: unknown): string | undefined {
  const state = (json as { state?: unknown } | null)?.state;
  if (state === undefined) return DEFAULT_STATE_PATH;
  if (typeof state !== 'object' || state === null) return undefined;
  const path = (state as { path?: unknown }).path;
  if (path === undefined) return DEFAULT_STATE_PATH;
  return typeof path === 'string' && path !== '' ? path : undefined;
}

function smtpLine(result: SmtpPingResult): string {
  if (!result.ok) return `SMTP server ${result.endpoint}: FAILED, ${result.explanation}`;
  return `SMTP server ${result.endpoint}: OK, it answers${result.login ? ' and accepts the login' : ''}`;
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

/** nodemailer is loaded only to ping, as the rest of check-config has no use for it. */
async function pingConfiguredSmtp(smtp: NonNullable<Config['smtp']>): Promise<SmtpPingResult> {
  const { pingSmtp } = await import('../checkConfig/pingSmtp.js');
  return pingSmtp(smtp, process.env);
}
