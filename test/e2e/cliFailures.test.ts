// How the CLI, run as a real process, answers bad input and API failures: one actionable line on stderr,
// the right exit code, no stack trace, never the token, and no request at all for input it can refuse.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { closedPort } from '../support/loopbackServer.js';
import { runCli } from '../support/runCli.js';

let sim: RunningSimulator;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ seed: 5, scenario: false });
  env = {
    MEAL_API_BASE_URL: sim.baseUrl,
    MEAL_API_ORGANIZATION: sim.organization.id,
    MEAL_API_TOKEN: sim.token,
  };
});

afterAll(async () => {
  await sim.close();
});

beforeEach(() => {
  sim.requestLog.clear();
});

function expectOneLine(stderr: string): void {
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('meal-notifier orders refuses bad input before any request', () => {
  it.each([
    [['--status', 'shipped'], /--status.*shipped.*invalid/i],
    [['--payment-method', 'bitcoin'], /--payment-method.*bitcoin.*invalid/i],
    [['--from', '2026-13-01'], /--from: not a calendar date/],
    [['--from', '22/11/2026'], /--from: expected YYYY-MM-DD/],
    [['--from', '2026-11-30', '--to', '2026-11-01'], /--from: start date is after end date/],
    [['--establishment', 'kitchen-1'], /--establishment: expected an establishment uuid/],
    [['--time-zone', 'Mars/Olympus'], /--time-zone "Mars\/Olympus" is not an IANA time zone/],
  ])('%j exits 2 with one line', async (args, message) => {
    const result = await runCli(['orders', ...args], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expectOneLine(result.stderr);
    expect(result.stdout).toBe('');
    expect(sim.requestLog.size).toBe(0);
  });

  it('names every missing connection setting, flag and variable', async () => {
    const result = await runCli(['orders'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'meal-notifier: missing connection settings: set --base-url or MEAL_API_BASE_URL, ' +
        '--organization or MEAL_API_ORGANIZATION, --token or MEAL_API_TOKEN (or give a config with --config FILE)\n',
    );
  });

  it('refuses an organization that is not a uuid', async () => {
    const result = await runCli(['establishments'], { ...env, MEAL_API_ORGANIZATION: 'north-school' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('meal-notifier: organization "north-school" is not a uuid\n');
    expect(sim.requestLog.size).toBe(0);
  });

  it('lets flags override the environment', async () => {
    const result = await runCli(['establishments', '--json', '--token', sim.token], {
      ...env,
      MEAL_API_TOKEN: 'stale-token',
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(sim.world.establishments().length);
  });
});

describe('meal-notifier orders explains API and network failures in one line', () => {
  it('says the token was rejected on a 401, naming the variable it came from, without printing the token', async () => {
    const token = 'wrong-token-s3cr3t';
    const result = await runCli(['orders'], { ...env, MEAL_API_TOKEN: token });
    expect(result.code).toBe(1);
    // Without a config the organization has no name: its uuid, as given, names it.
    expect(result.stderr).toBe(
      `meal-notifier: ${sim.organization.id}: token rejected: put a new token; the API answered 401 (unauthorized): ` +
        'the value of MEAL_API_TOKEN is wrong, expired or revoked\n',
    );
    expectOneLine(result.stderr);
    expect(result.stderr).not.toContain(token);
  });

  it('names --token, not the variable, for a token given on the command line', async () => {
    const result = await runCli(['establishments', '--token', 'wrong-token-s3cr3t'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '(unauthorized): the token given with --token is wrong, expired or revoked',
    );
    expect(result.stderr).not.toContain('wrong-token-s3cr3t');
  });

  it('says the token may not read the organization on a 403', async () => {
    const other = sim.organizations[1];
    if (!other) throw new Error('the simulator has a second organization');
    const result = await runCli(['establishments'], { ...env, MEAL_API_ORGANIZATION: other.id });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${other.id}: token rejected: put a new token; the API answered 403 (forbidden): the token may not read organization ${other.id}: check MEAL_API_ORGANIZATION`,
    );
    expectOneLine(result.stderr);
  });

  it('gives up on a 500 after bounded retries with one line naming the status', async () => {
    sim.faults.set({ errorRate: 1 });
    try {
      const result = await runCli(['establishments'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /: the API failed on its side \(500\) on GET \/establishments; this is not a config problem/,
      );
      expectOneLine(result.stderr);
      expect(sim.requestLog.size).toBe(4);
    } finally {
      sim.faults.reset();
    }
  }, 30_000);

  it('reports an unreachable server in words, naming MEAL_API_BASE_URL', async () => {
    const port = await closedPort();
    const result = await runCli(['orders'], {
      ...env,
      MEAL_API_BASE_URL: `http://127.0.0.1:${port}/api/v1/admin`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `meal-notifier: ${sim.organization.id}: cannot reach http://127.0.0.1:${port} (connection refused: ` +
        "nothing listens at that address and port): check MEAL_API_BASE_URL, DNS and this machine's network\n",
    );
    expectOneLine(result.stderr);
  }, 30_000);

  it('reports each attempt on stderr with --verbose', async () => {
    const result = await runCli(['establishments', '--verbose'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^\[api\] GET \/establishments attempt 1: 200 \(\d+ ms\)$/m);
  });
});
