// `meal-notifier put-secrets --stack NAME --file secrets.json`: puts every value the deployed stack's
// functions read, the organizations' API tokens and the Slack and webhook subscribers' secrets, each in its
// shard (shared/contracts/secretShards.ts), from one JSON file of values by reference name: one command
// however many organizations, subscribers and shards there are. `put-tokens` is its tokens-only form, kept
// for the files and scripts written before the subscriber secrets had shards: it writes the tokens' shards
// alone, so a file of tokens still needs nothing else.
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { findJsonSyntaxError } from '../../shared/config/jsonSyntax.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import { familyNamesOf, type SecretFamily } from '../../shared/contracts/secretShards.js';
import {
  planSecretShards,
  putSecretShards,
  SecretsFileError,
  type ShardValue,
} from '../../shared/operations/putSecrets.js';
import { counted } from '../../shared/text/counted.js';
import { CliUsageError } from '../errors.js';
import { withConfigOption } from '../flags.js';
import { stderrSink } from '../output/outputSink.js';

interface PutSecretsOptions {
  config: string;
  file: string;
  stack?: string;
  secretsPrefix?: string;
  region?: string;
  fromOldSecrets?: boolean;
}

export function putSecretsCommand(): Command {
  return withStackOptions(
    new Command('put-secrets').description(
      "Put every organization's API token and every Slack and webhook subscriber's secret into a deployed stack's secrets, from one JSON file",
    ),
    '{"NORTH_TOKEN": "...", "KITCHEN_SLACK_URL": "https://hooks.slack.com/...", ...}',
  )
    .option(
      '--from-old-secrets',
      'take each subscriber secret the file lacks from its own secret <prefix><NAME>, which a stack deployed before the shards kept (the upgrade)',
    )
    .addHelpText(
      'after',
      `
The stack keeps its secrets in a few Secrets Manager secrets, about 200 values a secret, each value in
the shard its name decides: <prefix>organization-tokens… (the organizations' tokens, which the poller
reads) and <prefix>subscriber-secrets… (Slack incoming-webhook URLs, Slack app bot tokens and webhook
signing secrets, which the delivery functions read). put-secrets checks the whole file against the config
first (every reference's value given, no name the config does not use, every secret under 64 KB), then
writes each secret whole. The functions read a new value within 5 minutes; no deployment is needed. Keep
the file somewhere safe: it is the only copy put-secrets reads, and a later run replaces every value.

Examples:
  $ meal-notifier put-secrets --config notifier.json --stack MealOrderNotifier --file secrets.json
  $ meal-notifier put-secrets --config notifier.json --secrets-prefix prod/notifier/ --file secrets.json
  # upgrading a stack whose subscriber secrets were one secret each: a file of the tokens is enough
  $ meal-notifier put-secrets --config notifier.json --stack MealOrderNotifier --file tokens.json --from-old-secrets`,
    )
    .action((options: PutSecretsOptions) =>
      putShards('put-secrets', ['organization-tokens', 'subscriber-secrets'], options),
    );
}

export function putTokensCommand(): Command {
  return withStackOptions(
    new Command('put-tokens').description(
      "Put every organization's API token into a deployed stack's tokens secrets, from one JSON file (put-secrets puts the subscribers' secrets too)",
    ),
    '{"NORTH_TOKEN": "...", ...}',
  )
    .addHelpText(
      'after',
      `
put-secrets' tokens-only form: the file holds every organization's token and nothing else, and only the
tokens' secrets (<prefix>organization-tokens…, about 200 tokens a secret) are written. It checks the whole
file against the config first (every organization's token given, no name no organization uses, every
secret under 64 KB), then writes each secret whole. The poller reads a new value within 5 minutes; no
deployment is needed. Keep the file somewhere safe: a later run replaces every token.

Examples:
  $ meal-notifier put-tokens --config notifier.json --stack MealOrderNotifier --file tokens.json
  $ meal-notifier put-tokens --config notifier.json --secrets-prefix prod/notifier/ --file tokens.json`,
    )
    .action((options: PutSecretsOptions) => putShards('put-tokens', ['organization-tokens'], options));
}

function withStackOptions(command: Command, fileShape: string): Command {
  return withConfigOption(command, 'the config file the stack was deployed with')
    .requiredOption(
      '--file <secrets.json>',
      `a JSON object of every value by its reference name, ${fileShape}`,
    )
    .option('--stack <name>', 'the deployed stack: its secrets are named <name>/organization-tokens…')
    .option(
      '--secrets-prefix <prefix>',
      'the prefix the stack was deployed with (-c secretsPrefix), instead of --stack',
    )
    .option('--region <region>', "the stack's AWS region (default: AWS_REGION, or your profile's)");
}

async function putShards(
  command: string,
  families: readonly SecretFamily[],
  options: PutSecretsOptions,
): Promise<void> {
  const prefix = options.secretsPrefix ?? (options.stack === undefined ? undefined : `${options.stack}/`);
  if (prefix === undefined) {
    throw new CliUsageError(`${command} needs the stack: give --stack NAME, or --secrets-prefix PREFIX`);
  }
  const config = await loadConfigFile(options.config);
  const given = await readSecretsFile(options.file);
  const { SecretsManagerShardWriter } = await import('../aws/secretsManagerShardWriter.js');
  const writer = new SecretsManagerShardWriter(options.region);
  const stderr = stderrSink();
  try {
    if (options.fromOldSecrets === true && isObject(given)) {
      // Each subscriber secret the file lacks, from the secret of its own that the stack kept on upgrade.
      for (const name of familyNamesOf(config, 'subscriber-secrets')) {
        if (Object.hasOwn(given, name)) continue;
        const value = await writer.get(`${prefix}${name}`);
        if (value !== undefined) given[name] = value;
        stderr.line(`${prefix}${name}: ${value === undefined ? 'has no value, not taken' : 'value taken'}`);
      }
    }
    const shards = planSecretShards(config, families, given, prefix, options.file);
    await putSecretShards(shards, writer, (shard) =>
      stderr.line(`${shard.secretName}: ${countedValues(shard)} put`),
    );
    stderr.line(summary(config.organizations.length, shards));
  } finally {
    writer.close();
  }
}

function countedValues(shard: ShardValue): string {
  return shard.family === 'organization-tokens'
    ? counted(shard.values, 'token')
    : counted(shard.values, 'subscriber secret');
}

function summary(organizations: number, shards: readonly ShardValue[]): string {
  const secrets = counted(shards.length, 'secret');
  const subscriberValues = shards
    .filter(({ family }) => family === 'subscriber-secrets')
    .reduce((sum, shard) => sum + shard.values, 0);
  const tokens = `the tokens of ${counted(organizations, 'organization')}`;
  return subscriberValues === 0 && shards.every(({ family }) => family === 'organization-tokens')
    ? `${tokens} put in ${secrets}; the poller reads them within 5 minutes`
    : `${tokens} and ${counted(subscriberValues, 'subscriber secret')} put in ${secrets}; the functions read them within 5 minutes`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's JSON; a syntax error by line and column, never quoting the text (it holds secrets). */
async function readSecretsFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new SecretsFileError(file, [`cannot be read (${code})`]);
  }
  const syntax = findJsonSyntaxError(text);
  if (syntax !== undefined) {
    throw new SecretsFileError(file, [`line ${syntax.line}, column ${syntax.column}: ${syntax.message}`]);
  }
  return JSON.parse(text) as unknown;
}
