// The Admin API connection of a CLI command: flags first, then MEAL_API_* environment variables.
import { type Command, Option } from 'commander';
import * as z from 'zod';
import { CliUsageError } from './errors.js';

export interface ConnectionOptions {
  baseUrl?: string;
  organization?: string;
  token?: string;
}

export interface Connection {
  baseUrl: string;
  organizationId: string;
  token: string;
}

export function addConnectionOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--base-url <url>', 'Admin API base URL, ending in /api/v1/admin').env('MEAL_API_BASE_URL'),
    )
    .addOption(new Option('--organization <uuid>', 'organization uuid').env('MEAL_API_ORGANIZATION'))
    .addOption(
      new Option('--token <token>', 'API token (prefer the environment variable: flags show in ps)').env(
        'MEAL_API_TOKEN',
      ),
    );
}

export function resolveConnection(options: ConnectionOptions): Connection {
  const missing = [
    options.baseUrl ? undefined : '--base-url or MEAL_API_BASE_URL',
    options.organization ? undefined : '--organization or MEAL_API_ORGANIZATION',
    options.token ? undefined : '--token or MEAL_API_TOKEN',
  ].filter((text) => text !== undefined);
  if (missing.length > 0 || !options.baseUrl || !options.organization || !options.token) {
    throw new CliUsageError(`missing connection settings: set ${missing.join(', ')}`);
  }
  const url = URL.parse(options.baseUrl);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new CliUsageError(`base URL "${options.baseUrl}" is not an http(s) URL`);
  }
  if (!z.guid().safeParse(options.organization).success) {
    throw new CliUsageError(`organization "${options.organization}" is not a uuid`);
  }
  return { baseUrl: options.baseUrl, organizationId: options.organization, token: options.token };
}
