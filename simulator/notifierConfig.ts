// How a notifier connects to a running simulator: each organization with the token that reads it, and
// the config that watches them all as the world intends (its window and time zone), tokens named by
// environment variable as a config requires.
import type { ConfigInput } from '../shared/config/configSchema.js';
import type { RunningSimulator } from './startSimulator.js';

export interface OrganizationConnection {
  id: string;
  name: string;
  token: string;
  /** The variable the config reads the token from: `MEAL_API_TOKEN` for the simulator's first token. */
  tokenEnv: string;
}

/** Every organization some token may read, in the simulator's order. */
export function organizationConnections(simulator: RunningSimulator): OrganizationConnection[] {
  const grants = simulator.access.list();
  const envOfToken = new Map<string, string>([[simulator.token, 'MEAL_API_TOKEN']]);
  const connections: OrganizationConnection[] = [];
  for (const organization of simulator.organizations) {
    const grant = grants.find((candidate) => candidate.organizations.includes(organization.id));
    if (!grant) continue;
    let tokenEnv = envOfToken.get(grant.token);
    if (tokenEnv === undefined) {
      tokenEnv = uniqueName(`${envName(organization.name)}_TOKEN`, new Set(envOfToken.values()));
      envOfToken.set(grant.token, tokenEnv);
    }
    connections.push({ id: organization.id, name: organization.name, token: grant.token, tokenEnv });
  }
  return connections;
}

/** A config for `meal-notifier poll` that watches every organization of the simulator. */
export function notifierConfigFor(
  simulator: RunningSimulator,
  connections: readonly OrganizationConnection[] = organizationConnections(simulator),
): ConfigInput {
  const { window, timeZone } = simulator.notifier;
  return {
    api: { baseUrl: simulator.baseUrl, requestsPerMinute: simulator.requestsPerMinute },
    organizations: connections.map((connection) => ({
      id: connection.id,
      name: connection.name,
      token: { env: connection.tokenEnv },
      timeZone,
      window: { ...window },
    })),
  };
}

/** The environment the config's token references need: variable name to token. */
export function tokenEnvironment(connections: readonly OrganizationConnection[]): Record<string, string> {
  return Object.fromEntries(connections.map((connection) => [connection.tokenEnv, connection.token]));
}

function envName(name: string): string {
  const upper = name
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z]/.test(upper) ? upper : `ORG_${upper}`;
}

function uniqueName(name: string, taken: ReadonlySet<string>): string {
  let candidate = name;
  for (let suffix = 2; taken.has(candidate); suffix += 1) candidate = `${name}_${suffix}`;
  return candidate;
}
