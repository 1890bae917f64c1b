// One voice, run as real processes against a real loopback API: the same wrong token, the same dead base URL
// and the same config typo, through every command that meets them, are told in one failure line (modulo a
// command's prefix: `meal-notifier: `, poll's indent, status's `last error: `) that names the organization
// by name and the variable or key to fix, and in one list of problems, in the file's order. send-test makes
// no API request: it meets the typo only.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { closedPort } from '../support/loopbackServer.js';
import { type CliResult, runCli } from '../support/runCli.js';
import { makeWebhookSecret } from '../support/webhookReceiver.js';

const token = 'sim_north_token_for_one_voice';
const wrongToken = 'sim_wrong_token_s3cr3t';

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 25,
    scenario: false,
    initialOrders: 3,
    organizations: [{ name: 'North School' }],
    tokens: [{ token, organizations: ['North School'] }],
  });
  dir = await mkdtemp(join(tmpdir(), 'one-voice-'));
  env = { NORTH_TOKEN: token, HOOK_SECRET: makeWebhookSecret() };
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** North School's config, with its own state file, as a user writes it: api first, then organizations. */
async function writeConfig(name: string, baseUrl: string, organization: Record<string, unknown> = {}) {
  const path = join(dir, `${name}.json`);
  const config = {
    api: { baseUrl },
    organizations: [
      {
        id: sim.organization.id,
        name: 'North School',
        token: { env: 'NORTH_TOKEN' },
        timeZone: 'Europe/Lisbon',
        ...organization,
      },
    ],
    subscribers: [
      {
        id: 'automation',
        type: 'webhook',
        url: 'https://hooks.example.org/orders',
        secret: { env: 'HOOK_SECRET' },
      },
    ],
    state: { path: join(dir, `${name}.db`) },
  };
  await writeFile(path, JSON.stringify(config, null, 2));
  return path;
}

/** North School's failure line in `text`, after the command's `prefix`; fails the test when there is none. */
function lineAfter(text: string, prefix: string): string {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${prefix}North School: `));
  if (line === undefined)
    throw new Error(`no line of North School after ${JSON.stringify(prefix)} in:\n${text}`);
  return line.slice(prefix.length);
}

/**
 * What each command that reaches the API says of the same failure, each command's prefix cut: `orders` and
 * `establishments` (stderr), `poll --once` (its failure line on stderr), `check-config --ping` (stdout), and
 * `status` afterwards (the last error poll recorded, in its table and in --json).
 */
async function failureLines(config: string, commandEnv: Record<string, string>) {
  const [orders, establishments, poll, ping] = await Promise.all([
    runCli(['orders', '--config', config], commandEnv),
    runCli(['establishments', '--config', config], commandEnv),
    runCli(['poll', '--once', '--config', config], commandEnv),
    runCli(['check-config', config, '--ping'], commandEnv),
  ]);
  const [status, statusJson] = await Promise.all([
    runCli(['status', '--config', config], commandEnv),
    runCli(['status', '--config', config, '--json'], commandEnv),
  ]);
  for (const result of [orders, establishments, poll, ping, status, statusJson]) expect(result.code).toBe(1);
  const lastError = (JSON.parse(statusJson.stdout) as { organizations: Array<{ lastError: string }> })
    .organizations[0]?.lastError;
  return {
    results: { orders, establishments, poll, ping, status },
    lines: {
      orders: lineAfter(orders.stderr, 'meal-notifier: '),
      establishments: lineAfter(establishments.stderr, 'meal-notifier: '),
      poll: lineAfter(poll.stderr, '  '),
      ping: lineAfter(ping.stdout, ''),
      status: lineAfter(status.stdout.replace(/^│ /gm, ''), 'last error: ').replace(/\s*│$/, ''),
      statusJson: lastError,
    },
  };
}

function expectOneLineEach(results: Record<string, CliResult>): void {
  for (const { stdout, stderr } of Object.values(results)) {
    expect(`${stdout}${stderr}`).not.toMatch(/\n\s+at /);
    expect(`${stdout}${stderr}`).not.toContain(wrongToken);
  }
}

/** The same failure line, as every command that reaches the API prints it. */
function fromEveryCommand(line: string) {
  return { orders: line, establishments: line, poll: line, ping: line, status: line, statusJson: line };
}

describe('every command tells the same API failure in the same words', () => {
  it('a wrong token: the organization by name and the variable that holds the token', async () => {
    const config = await writeConfig('wrong-token', sim.baseUrl);
    const { results, lines } = await failureLines(config, { ...env, NORTH_TOKEN: wrongToken });

    const line =
      'North School: token rejected: put a new token; the API answered 401 (unauthorized): ' +
      'the value of NORTH_TOKEN is wrong, expired or revoked';
    expect(lines).toEqual(fromEveryCommand(line));
    // A token the API refused is not a shortage of budget.
    expect(results.poll.stderr).not.toContain('deferred');
    expectOneLineEach(results);
  }, 60_000);

  it('a base URL nothing listens at: the key to fix, and a cycle that says it could not reach the API', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const config = await writeConfig('dead-url', `${origin}/api/v1/admin`);
    const { results, lines } = await failureLines(config, env);

    const line =
      `North School: cannot reach ${origin} (connection refused: nothing listens at that address and port): ` +
      "check $.api.baseUrl, DNS and this machine's network";
    expect(lines).toEqual(fromEveryCommand(line));
    // No request got an answer: budget figures and listings "deferred for budget" would mislead.
    expect(results.poll.stderr).toMatch(/^North School: could not reach the API, next in \d+ s$/m);
    expect(results.poll.stderr).not.toMatch(/deferred|left this minute/);
    expectOneLineEach(results);
  }, 60_000);
});

describe('every command lists the same config problems in the same order', () => {
  it('one typo, two problems, in the order of the file, with one path notation', async () => {
    // "timezone" for "timeZone": an unknown key where the typo is, and the key it should have been missing.
    const config = await writeConfig('typo', sim.baseUrl, { timeZone: undefined, timezone: 'Europe/Lisbon' });
    const commands = {
      orders: ['orders', '--config', config],
      poll: ['poll', '--once', '--config', config],
      checkConfig: ['check-config', config, '--ping'],
      sendTest: ['send-test', '--config', config, '--subscriber', 'automation'],
      status: ['status', '--config', config],
    };
    const results = Object.fromEntries(
      await Promise.all(
        Object.entries(commands).map(async ([name, args]) => [name, await runCli(args, env)] as const),
      ),
    );

    const expected =
      `meal-notifier: ${config}: 2 problems\n` +
      '  $.organizations[0]: unknown key "timezone" (did you mean "timeZone"?)\n' +
      '  $.organizations[0].timeZone: required: the IANA time zone "today" is counted in, e.g. "Europe/Lisbon"\n';
    for (const [name, result] of Object.entries(results)) {
      expect({ name, code: result.code, stderr: result.stderr }).toEqual({ name, code: 2, stderr: expected });
    }
  }, 30_000);

  it('an unset secret is pointed at as check-config points at it, by send-test too', async () => {
    const config = await writeConfig('unset-secret', sim.baseUrl);
    const withoutSecret = { NORTH_TOKEN: token };
    const [sendTest, poll, checkConfig] = await Promise.all([
      runCli(['send-test', '--config', config, '--subscriber', 'automation'], withoutSecret),
      runCli(['poll', '--once', '--config', config], withoutSecret),
      runCli(['check-config', config], withoutSecret),
    ]);

    const expected =
      `meal-notifier: ${config}: 1 problem\n` +
      '  $.subscribers[0].secret: environment variable HOOK_SECRET is not set or is empty\n';
    expect([sendTest, poll, checkConfig].map(({ code, stderr }) => ({ code, stderr }))).toEqual(
      Array(3).fill({ code: 2, stderr: expected }),
    );
  }, 30_000);
});
