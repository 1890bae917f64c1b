// The README's "try delivery with no accounts" path, run as a new user would: `simulate --receivers` in
// one process, `poll` with the user's own config in another; the Slack-like endpoint and the SMTP server
// in the first process show the notifications as they arrive.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type RunningCli, runCli, startCli } from '../support/runCli.js';

let simulator: RunningCli;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  simulator = startCli([
    'simulate',
    '--port',
    '0',
    '--seed',
    '5',
    '--speed',
    '0',
    '--orders',
    '4',
    '--receivers',
  ]);
  const printed = await simulator.waitForStdout(/export SMTP_URL=\S+\n/);
  env = Object.fromEntries([...printed.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
  dir = await mkdtemp(join(tmpdir(), 'receivers-'));
});

afterAll(async () => {
  expect(await simulator.stop('SIGINT')).toBe(0);
  await rm(dir, { recursive: true, force: true });
});

describe('meal-notifier simulate --receivers', () => {
  it('prints a Slack webhook URL and an SMTP URL next to the API connection', () => {
    expect(env.SLACK_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/services\//);
    expect(env.SMTP_URL).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
  });

  it('shows the Slack messages and e-mails that poll delivers to them', async () => {
    // The connection simulate printed: its API, its organization, the token in MEAL_API_TOKEN.
    const config = await writeNorthSchoolConfig(dir, env.MEAL_API_BASE_URL ?? '', {
      organization: { id: env.MEAL_API_ORGANIZATION, token: { env: 'MEAL_API_TOKEN' }, emitExisting: true },
      subscribers: [
        { id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' } },
        { id: 'office', type: 'email', to: ['office@example.org'], filter: { statuses: ['pending'] } },
      ],
      smtp: true,
      state: 'state.db',
    });
    const run = await runCli(['poll', '--config', config, '--once'], env);
    expect(run.code).toBe(0);
    const output = await simulator.waitForStdout(/\[mail to office@example\.org\] New order \S+ — /);
    expect(output).toMatch(/\[slack #kitchen\] .*(New order|Completed|Canceled)/);
    // The default is one summary line a message: no blocks or text part under it.
    expect(output).not.toMatch(/^ {4}Reference: /m);
  });
});
