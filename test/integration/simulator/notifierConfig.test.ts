import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import {
  notifierConfigFor,
  organizationConnections,
  RECEIVER_ENV,
  tokenEnvironment,
} from '../../../simulator/notifierConfig.js';
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../simulator/startSimulator.js';
import { call, T0 } from './simulatorHttp.js';

const running: RunningSimulator[] = [];

async function start(options: SimulatorOptions): Promise<RunningSimulator> {
  const sim = await startSimulator({ seed: 8, clock: () => T0, scenario: false, ...options });
  running.push(sim);
  return sim;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

describe('notifier config for a running simulator', () => {
  it('names the first token MEAL_API_TOKEN and each other token after the organization it reads', async () => {
    const sim = await start({});
    const connections = organizationConnections(sim);
    expect(connections.map((connection) => [connection.name, connection.tokenEnv])).toEqual([
      ['North School', 'MEAL_API_TOKEN'],
      ['South Academy', 'SOUTH_ACADEMY_TOKEN'],
    ]);
    for (const connection of connections) {
      const answer = await call(sim, '/orders', { token: connection.token, organization: connection.id });
      expect(answer.status).toBe(200);
    }
    expect(tokenEnvironment(connections)).toEqual({
      MEAL_API_TOKEN: sim.token,
      SOUTH_ACADEMY_TOKEN: connections[1]?.token,
    });
  });

  it("builds a valid config that watches every organization with the world's window and time zone", async () => {
    const sim = await start({ world: 'shared-token', timeZone: 'Europe/Madrid', requestsPerMinute: 40 });
    const config = parseConfig(notifierConfigFor(sim));
    expect(config.api).toEqual({ baseUrl: sim.baseUrl, requestsPerMinute: 40 });
    expect(config.organizations.map((organization) => organization.id)).toEqual(
      sim.organizations.map((organization) => organization.id),
    );
    for (const organization of config.organizations) {
      expect(organization.token).toEqual({ env: 'MEAL_API_TOKEN' });
      expect(organization.window).toEqual({ daysBack: 3, daysAhead: 3 });
      expect(organization.timeZone).toBe('Europe/Madrid');
    }
  });

  it('with the receivers, adds a Slack and an e-mail subscriber reading their URLs from SLACK_URL and SMTP_URL', async () => {
    const sim = await start({});
    expect(parseConfig(notifierConfigFor(sim)).subscribers).toEqual([]);
    const config = parseConfig(notifierConfigFor(sim, undefined, { receivers: true }));
    expect(config.subscribers.map((subscriber) => [subscriber.id, subscriber.type])).toEqual([
      ['kitchen', 'slack'],
      ['office', 'email'],
    ]);
    expect(config.subscribers[0]).toMatchObject({ webhookUrl: { env: RECEIVER_ENV.slack } });
    expect(config.smtp?.url).toEqual({ env: RECEIVER_ENV.smtp });
    for (const organization of config.organizations) {
      expect(organization.statuses).toEqual(['pending', 'completed', 'canceled']);
    }
  });

  it('leaves out an organization no token may read', async () => {
    const sim = await start({ tokens: [{ token: 'sim_only_north', organizations: ['North School'] }] });
    expect(organizationConnections(sim).map((connection) => connection.name)).toEqual(['North School']);
  });
});
