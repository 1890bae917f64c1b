// How a notifier connects to a running simulator: each organization with the token that reads it, and
// the config that watches them all as the world intends (its window and time zone), tokens named by
// environment variable as a config requires; with the local receivers, the subscribers that reach them.
import type { OrderStatus } from '../shared/api/schemas.js';
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

/** The variables `simulate --receivers` exports its receivers' URLs in, which the config reads. */
export const RECEIVER_ENV = {
  slack: 'SLACK_URL',
  smtp: 'SMTP_URL',
  slackBotToken: 'KITCHEN_SLACK_BOT_TOKEN',
} as const;

/**
 * What the receivers' config adds: a Slack channel and an office mailbox (README.md's walkthrough), and
 * the orders they hear of. Archived orders are left out, as the demo leaves them: at the simulator's pace
 * only the slow sweep finds them, in batches.
 */
const RECEIVERS: Pick<ConfigInput, 'subscribers' | 'smtp'> & { statuses: OrderStatus[] } = {
  statuses: ['pending', 'completed', 'canceled'],
  subscribers: [
    { id: 'kitchen', type: 'slack', webhookUrl: { env: RECEIVER_ENV.slack } },
    {
      id: 'office',
      type: 'email',
      to: ['office@example.org'],
      filter: { types: ['order.created', 'order.canceled'] },
    },
  ],
  smtp: { url: { env: RECEIVER_ENV.smtp }, from: 'Order alerts <alerts@example.org>' },
};

export interface NotifierConfigOptions {
  /** Adds the subscribers that deliver to `simulate --receivers`' Slack endpoint and SMTP server. */
  receivers?: boolean;
  /**
   * With the receivers: the Slack Web API stand-in, for a Slack app subscriber `kitchen-board` keeping the
   * kitchen's board in its channel, its bot token read from KITCHEN_SLACK_BOT_TOKEN.
   */
  slackApp?: { apiUrl: string; channel: string };
}

/** A config for `meal-notifier poll` that watches every organization of the simulator. */
export function notifierConfigFor(
  simulator: RunningSimulator,
  connections: readonly OrganizationConnection[] = organizationConnections(simulator),
  { receivers = false, slackApp }: NotifierConfigOptions = {},
): ConfigInput {
  const { window, timeZone } = simulator.notifier;
  const organizations = connections.map((connection) => ({
    id: connection.id,
    name: connection.name,
    token: { env: connection.tokenEnv },
    timeZone,
    window: { ...window },
  }));
  const api = { baseUrl: simulator.baseUrl, requestsPerMinute: simulator.requestsPerMinute };
  if (!receivers) return { api, organizations };
  const { statuses, subscribers, smtp } = structuredClone(RECEIVERS);
  return {
    api,
    organizations: organizations.map((organization) => ({ ...organization, statuses: [...statuses] })),
    subscribers: [
      ...(subscribers ?? []),
      ...(slackApp === undefined
        ? []
        : [
            {
              id: 'kitchen-board',
              type: 'slack' as const,
              botToken: { env: RECEIVER_ENV.slackBotToken },
              channel: slackApp.channel,
              apiUrl: slackApp.apiUrl,
            },
          ]),
    ],
    smtp,
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
