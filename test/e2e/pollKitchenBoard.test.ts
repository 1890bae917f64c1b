// The kitchen's board as a user runs it: `meal-notifier poll --once` as a real process against the
// simulator, delivering to a Slack Web API stand-in on 127.0.0.1 through a Slack app subscriber. A new order
// is a reply in its board's thread; its completion, found by the next run (a restart), edits that reply
// and the board instead of posting again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Establishment } from '../../shared/api/schemas.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { runCli } from '../support/runCli.js';
import { type SlackWebApiStandIn, startSlackWebApiStandIn } from '../support/slackWebApiStandIn.js';

let sim: RunningSimulator;
let dir: string;
let slack: SlackWebApiStandIn;
let establishment: Establishment;

beforeEach(async () => {
  sim = await startSimulator({ seed: 51, scenario: false, initialOrders: 10 });
  dir = await mkdtemp(join(tmpdir(), 'poll-kitchen-board-'));
  slack = await startSlackWebApiStandIn();
  const [first] = sim.world.establishments();
  if (!first) throw new Error('the simulator has an establishment');
  establishment = first;
});

afterEach(async () => {
  await Promise.all([slack.close(), sim.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('meal-notifier poll to a Slack app subscriber', () => {
  it('posts a new order as a reply in its board thread, and its completion edits that reply after a restart', async () => {
    const config = await writeNorthSchoolConfig(dir, sim, {
      state: 'state.db',
      subscribers: [
        {
          id: 'kitchen',
          type: 'slack',
          botToken: { env: 'KITCHEN_SLACK_BOT_TOKEN' },
          channel: 'C0123ABCD',
          apiUrl: slack.apiUrl,
          filter: { establishments: [establishment.uuid] },
        },
      ],
    });
    const env = { NORTH_TOKEN: sim.token, KITCHEN_SLACK_BOT_TOKEN: slack.token };
    expect((await runCli(['poll', '--config', config, '--once'], env)).code).toBe(0);

    const order = sim.world.addOrder({ pickupDate: sim.world.today(), establishment: establishment.uuid });
    const created = await runCli(['poll', '--config', config, '--once'], env);
    expect(created.code).toBe(0);
    expect(slack.topLevel()).toHaveLength(1);
    const board = slack.topLevel()[0];
    const thread = slack.thread(board?.ts ?? '');
    expect(thread).toHaveLength(1);
    expect(JSON.stringify(thread[0]?.blocks)).toContain(order.reference);
    expect(JSON.stringify(board?.blocks)).toContain(establishment.name);

    sim.world.setStatus(order.uuid, 'completed');
    const completed = await runCli(['poll', '--config', config, '--once'], env);
    expect(completed.code).toBe(0);
    expect(slack.topLevel()).toHaveLength(1);
    expect(slack.thread(board?.ts ?? '')).toHaveLength(1);
    const reply = slack.messages.get(thread[0]?.ts ?? '');
    expect(reply?.edits).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(reply?.blocks)).toContain('Completed');
    // The token went only in the Authorization header, and never into what the runner printed.
    expect(`${created.stdout}${created.stderr}${completed.stdout}${completed.stderr}`).not.toContain(
      slack.token,
    );
  });
});
