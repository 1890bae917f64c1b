// Builds the local runner's adapters from a config file: the SQLite state store, one request budget per
// token (shared by every organization using it, through the store), and one API client per organization.
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { AdminApiClient, type AttemptReport } from '../../shared/api/adminApiClient.js';
import { RequestBudget } from '../../shared/api/requestBudget.js';
import type { Config, OrganizationConfig } from '../../shared/config/configSchema.js';
import { ConfigError } from '../../shared/config/errors.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import {
  EnvSecretResolver,
  findMissingSecrets,
  type ResolvedSecrets,
  resolveSecrets,
} from '../../shared/config/secretResolver.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';

const PRUNE_EVERY_MS = 3_600_000;

export interface OrganizationRuntime {
  organization: OrganizationConfig;
  client: AdminApiClient;
}

export interface LocalRuntime {
  config: Config;
  configPath: string;
  /** Absolute path of the SQLite state file. */
  statePath: string;
  store: SqliteStateStore;
  secrets: ResolvedSecrets;
  organizations: OrganizationRuntime[];
  /** Names this process in organization leases. */
  runId: string;
  /** Removes expired snapshots and events, at most once an hour: SQLite has no TTL sweeper. */
  pruneIfDue(): Promise<void>;
  close(): Promise<void>;
}

export interface LocalRuntimeOptions {
  env?: NodeJS.ProcessEnv;
  onAttempt?: (organization: OrganizationConfig, attempt: AttemptReport) => void;
  clock?: () => number;
}

export async function openLocalRuntime(
  configPath: string,
  options: LocalRuntimeOptions = {},
): Promise<LocalRuntime> {
  const env = options.env ?? process.env;
  const config = await loadConfigFile(configPath);
  const missing = findMissingSecrets(config, env);
  if (missing.length > 0) {
    throw new ConfigError(
      configPath,
      missing.map(({ path, variable }) => ({
        path,
        message: `environment variable ${variable} is not set or is empty`,
      })),
    );
  }
  const secrets = await resolveSecrets(config, new EnvSecretResolver(env));
  // Relative to the config file, so the runner finds its state whatever directory it is started from.
  const statePath = resolve(dirname(resolve(configPath)), config.state.path);
  const clock = options.clock ?? Date.now;
  const store = new SqliteStateStore({ path: statePath, clock });
  const budgets = new Map<string, RequestBudget>();
  const organizations = config.organizations.map((organization): OrganizationRuntime => {
    const token = secrets.get(organization.token);
    let budget = budgets.get(token);
    if (!budget) {
      budget = new RequestBudget({
        token,
        requestsPerMinute: config.api.requestsPerMinute,
        store: store.budgetCounters,
        clock,
      });
      budgets.set(token, budget);
    }
    const onAttempt = options.onAttempt;
    const client = new AdminApiClient({
      baseUrl: config.api.baseUrl,
      organizationId: organization.id,
      organizationName: organization.name,
      token,
      budget,
      clock,
      ...(onAttempt ? { onAttempt: (attempt: AttemptReport) => onAttempt(organization, attempt) } : {}),
    });
    return { organization, client };
  });
  let prunedAt = Number.NEGATIVE_INFINITY;
  return {
    config,
    configPath,
    statePath,
    store,
    secrets,
    organizations,
    runId: `${hostname()}:${process.pid}:${clock().toString(36)}`,
    pruneIfDue: async () => {
      if (clock() - prunedAt < PRUNE_EVERY_MS) return;
      prunedAt = clock();
      await store.prune(prunedAt);
    },
    close: async () => {
      await Promise.all(organizations.map(({ client }) => client.close()));
      store.close();
    },
  };
}
