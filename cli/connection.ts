// The Admin API connection of a CLI command: flags first, then MEAL_API_* environment variables; or a
// config (--config FILE, or MEAL_NOTIFIER_CONFIG) with one of its organizations.
import { type Command, Option } from 'commander';
import * as z from 'zod';
import { jsonPath } from '../shared/config/configProblems.js';
import type { Config } from '../shared/config/configSchema.js';
import { type ApiTarget, apiTargetOf } from '../shared/config/explainApiFailure.js';
import { type ConfigSecretsCheck, loadConfigFile } from '../shared/config/loadConfig.js';
import { CliUsageError } from './errors.js';
import { configFileOf, configGivenAsFlag, withConfigOption } from './flags.js';
import { resolveStatePath } from './runtime/statePath.js';

export interface ConnectionOptions {
  baseUrl?: string;
  organization?: string;
  token?: string;
  config?: string;
}

export interface Connection {
  baseUrl: string;
  organizationId: string;
  /** Known when the connection comes from a config; errors then name the organization. */
  organizationName?: string;
  token: string;
  /** Where each part was given, for the failure line (explainApiFailure) to name what to fix. */
  target: ApiTarget;
  /** From a config: its state file, whose budget a poller of it counts in, and the token's limit. */
  budget?: { statePath: string; requestsPerMinute: number };
}

export function addConnectionOptions(command: Command): Command {
  return withConfigOption(
    command,
    'take the connection from this config, for the organization --organization names (see below)',
    { optional: true },
  )
    .addOption(
      new Option('--base-url <url>', 'Admin API base URL, ending in /api/v1/admin').env('MEAL_API_BASE_URL'),
    )
    .addOption(
      new Option(
        '--organization <uuid|name>',
        'organization uuid; with a config, its name or uuid there',
      ).env('MEAL_API_ORGANIZATION'),
    )
    .addOption(
      new Option('--token <token>', 'API token (prefer the environment variable: flags show in ps)').env(
        'MEAL_API_TOKEN',
      ),
    );
}

/** Help text for the commands that take a connection: which source wins. */
export const CONNECTION_HELP = `
The connection comes from --base-url, --organization and --token (or MEAL_API_BASE_URL,
MEAL_API_ORGANIZATION and MEAL_API_TOKEN), or from a config: --config FILE, or MEAL_NOTIFIER_CONFIG when
no base URL is given. With a config, --organization picks one of its organizations by name or uuid, and
the token is read from that organization's variable ("token": { "env": … }); --token overrides it.`;

/** The connection the command was given; a config is read only when it is the source. */
export async function resolveConnection(
  command: Command,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Connection> {
  const options = command.opts<ConnectionOptions>();
  const fromCli = (name: string) => command.getOptionValueSource(name) === 'cli';
  const configGiven = options.config !== undefined && options.config !== '';
  if (configGiven && (configGivenAsFlag(command) || options.baseUrl === undefined)) {
    if (fromCli('baseUrl')) {
      throw new CliUsageError('--config and --base-url are two ways to give the connection: give one');
    }
    const file = configFileOf(command);
    const wanted = options.organization?.trim();
    // A token given on the command line is the only secret read; otherwise the organization's own.
    const secrets: ConfigSecretsCheck | undefined = fromCli('token')
      ? undefined
      : {
          env,
          needed: {
            organization: (drafts) => pickOrganization(wanted, drafts),
          },
        };
    return connectionFromConfig(await loadConfigFile(file, secrets), file, env, {
      organization: options.organization,
      organizationFlag: fromCli('organization') ? '--organization' : 'MEAL_API_ORGANIZATION',
      token: fromCli('token') ? options.token : undefined,
    });
  }
  return connectionFromFlags(options, fromCli);
}

function connectionFromFlags(options: ConnectionOptions, fromCli: (name: string) => boolean): Connection {
  const missing = [
    options.baseUrl ? undefined : '--base-url or MEAL_API_BASE_URL',
    options.organization ? undefined : '--organization or MEAL_API_ORGANIZATION',
    options.token ? undefined : '--token or MEAL_API_TOKEN',
  ].filter((text) => text !== undefined);
  if (missing.length > 0 || !options.baseUrl || !options.organization || !options.token) {
    throw new CliUsageError(
      `missing connection settings: set ${missing.join(', ')} (or give a config with --config FILE)`,
    );
  }
  const url = URL.parse(options.baseUrl);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new CliUsageError(`base URL "${options.baseUrl}" is not an http(s) URL`);
  }
  if (!z.guid().safeParse(options.organization).success) {
    throw new CliUsageError(`organization "${options.organization}" is not a uuid`);
  }
  // Named as the user gave it: the flag, or the environment variable behind it.
  const key = (name: string, flag: string, variable: string) => (fromCli(name) ? flag : variable);
  const target: ApiTarget = {
    organization: options.organization,
    id: options.organization,
    idKey: key('organization', '--organization', 'MEAL_API_ORGANIZATION'),
    token: fromCli('token') ? 'the token given with --token' : 'the value of MEAL_API_TOKEN',
    baseUrlKey: key('baseUrl', '--base-url', 'MEAL_API_BASE_URL'),
    baseUrl: options.baseUrl,
  };
  return { baseUrl: options.baseUrl, organizationId: options.organization, token: options.token, target };
}

interface ConfigSelection {
  /** A name or uuid; undefined picks the config's only organization. */
  organization: string | undefined;
  /** Where `organization` came from, to name it in an error. */
  organizationFlag: string;
  /** Given on the command line: beats the organization's own variable. */
  token: string | undefined;
}

function connectionFromConfig(
  config: Config,
  file: string,
  env: NodeJS.ProcessEnv,
  selection: ConfigSelection,
): Connection {
  const known = config.organizations.map(({ name }) => `"${name}"`).join(', ');
  const wanted = selection.organization?.trim();
  const index = pickOrganization(wanted, config.organizations);
  const organization = config.organizations[index];
  if (!organization) {
    throw new CliUsageError(
      wanted === undefined
        ? `${file} has ${config.organizations.length} organizations: pick one with --organization NAME or UUID (${known})`
        : `${selection.organizationFlag} "${wanted}" names no organization of ${file} (it has ${known})`,
    );
  }
  const token = selection.token ?? env[organization.token.env];
  if (!token) {
    throw new CliUsageError(
      `environment variable ${organization.token.env} is not set or is empty: it holds the token of "${organization.name}" (${jsonPath(['organizations', index, 'token'])} in ${file})`,
    );
  }
  const target = apiTargetOf(config, index);
  return {
    baseUrl: config.api.baseUrl,
    organizationId: organization.id,
    organizationName: organization.name,
    token,
    target: selection.token === undefined ? target : { ...target, token: 'the token given with --token' },
    budget: {
      statePath: resolveStatePath(config.state.path, file),
      requestsPerMinute: config.api.requestsPerMinute,
    },
  };
}

type DraftOrganization = { id?: unknown; name?: unknown } | undefined;

/**
 * The index of the organization `wanted` names (its uuid, or its name in any case), or of the only one
 * when none is wanted; -1 when there is no such organization. Takes a draft config's entries too.
 */
function pickOrganization(wanted: string | undefined, organizations: readonly DraftOrganization[]): number {
  if (wanted === undefined) return organizations.length === 1 ? 0 : -1;
  const key = wanted.toLowerCase();
  return organizations.findIndex(
    (organization) =>
      organization?.id === key ||
      (typeof organization?.name === 'string' && organization.name.trim().toLowerCase() === key),
  );
}
