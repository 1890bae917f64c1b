// `meal-notifier put-tokens --stack NAME --file tokens.json`: puts every organization's API token into the
// deployed stack's tokens secrets, each in its shard (shared/contracts/organizationTokensSecret.ts), from
// one JSON file of tokens by reference name: one command however many organizations and shards there are.
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { findJsonSyntaxError } from '../../shared/config/jsonSyntax.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import {
  planTokenShards,
  putOrganizationTokens,
  TokensFileError,
} from '../../shared/operations/putOrganizationTokens.js';
import { counted } from '../../shared/text/counted.js';
import { CliUsageError } from '../errors.js';
import { withConfigOption } from '../flags.js';
import { stderrSink } from '../output/outputSink.js';

interface PutTokensOptions {
  config: string;
  file: string;
  stack?: string;
  secretsPrefix?: string;
  region?: string;
}

export function putTokensCommand(): Command {
  return withConfigOption(
    new Command('put-tokens').description(
      "Put every organization's API token into a deployed stack's tokens secrets, from one JSON file",
    ),
    'the config file the stack was deployed with',
  )
    .requiredOption(
      '--file <tokens.json>',
      'a JSON object of every token by its reference name, {"NAME": "..."}',
    )
    .option('--stack <name>', 'the deployed stack: its secrets are named <name>/organization-tokens…')
    .option(
      '--secrets-prefix <prefix>',
      'the prefix the stack was deployed with (-c secretsPrefix), instead of --stack',
    )
    .option('--region <region>', "the stack's AWS region (default: AWS_REGION, or your profile's)")
    .addHelpText(
      'after',
      `
The stack keeps the organizations' tokens in a few Secrets Manager secrets, about 200 a secret, each
token in the shard its name decides. put-tokens checks the whole file against the config first (every
organization's token given, no name no organization uses, every secret under 64 KB), then writes each
secret whole. The poller reads a new value within 5 minutes; no deployment is needed. Keep the file
somewhere safe: it is the only copy put-tokens reads, and a later run replaces every token.

Examples:
  $ meal-notifier put-tokens --config notifier.json --stack MealOrderNotifier --file tokens.json
  $ meal-notifier put-tokens --config notifier.json --secrets-prefix prod/notifier/ --file tokens.json`,
    )
    .action(async (options: PutTokensOptions) => {
      const prefix = options.secretsPrefix ?? (options.stack === undefined ? undefined : `${options.stack}/`);
      if (prefix === undefined) {
        throw new CliUsageError('put-tokens needs the stack: give --stack NAME, or --secrets-prefix PREFIX');
      }
      const config = await loadConfigFile(options.config);
      const shards = planTokenShards(
        config.organizations,
        await readTokensFile(options.file),
        prefix,
        options.file,
      );
      const { SecretsManagerTokenWriter } = await import('../aws/secretsManagerTokenWriter.js');
      const writer = new SecretsManagerTokenWriter(options.region);
      const stderr = stderrSink();
      try {
        await putOrganizationTokens(shards, writer, (shard) =>
          stderr.line(`${shard.secretName}: ${counted(shard.tokens, 'token')} put`),
        );
      } finally {
        writer.close();
      }
      stderr.line(
        `the tokens of ${counted(config.organizations.length, 'organization')} put in ${counted(shards.length, 'secret')}; the poller reads them within 5 minutes`,
      );
    });
}

/** The file's JSON; a syntax error by line and column, never quoting the text (it holds tokens). */
async function readTokensFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new TokensFileError(file, [`cannot be read (${code})`]);
  }
  const syntax = findJsonSyntaxError(text);
  if (syntax !== undefined) {
    throw new TokensFileError(file, [`line ${syntax.line}, column ${syntax.column}: ${syntax.message}`]);
  }
  return JSON.parse(text) as unknown;
}
