// How a command learns its config and its API connection, in process against the simulator: a command
// given no config names both ways to give one; orders and establishments take a config's organization by
// name or uuid, with its token from that organization's variable, when --config is given, or when
// MEAL_NOTIFIER_CONFIG is set and no base URL is; and each mixed or incomplete choice is one usage line.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { runCliInProcess } from '../../support/runCliInProcess.js';

let sim: RunningSimulator;
let dir: string;
/** Two organizations, each with its own token variable. */
let twoSchools: string;
/** South Academy alone. */
let oneSchool: string;
let southToken: string;
const DEAD_URL = 'http://127.0.0.1:9/api/v1/admin';

beforeAll(async () => {
  sim = await startSimulator({
    seed: 23,
    scenario: false,
    initialOrders: 3,
    organizations: [{ name: 'North School' }, { name: 'South Academy' }],
    tokens: [
      { token: 'sim_north_token_config_connection', organizations: ['North School'] },
      { token: 'sim_south_token_config_connection', organizations: ['South Academy'] },
    ],
  });
  southToken = 'sim_south_token_config_connection';
  dir = await mkdtemp(join(tmpdir(), 'config-connection-'));
  const [north, south] = sim.organizations;
  const organization = (name: string, id: string | undefined, env: string) => ({
    id,
    name,
    token: { env },
    timeZone: 'Europe/Lisbon',
  });
  twoSchools = join(dir, 'two.json');
  await writeFile(
    twoSchools,
    JSON.stringify({
      api: { baseUrl: sim.baseUrl },
      organizations: [
        organization('North School', north?.id, 'NORTH_TOKEN'),
        organization('South Academy', south?.id, 'SOUTH_TOKEN'),
      ],
    }),
  );
  oneSchool = join(dir, 'one.json');
  await writeFile(
    oneSchool,
    JSON.stringify({
      api: { baseUrl: sim.baseUrl },
      organizations: [organization('South Academy', south?.id, 'SOUTH_TOKEN')],
    }),
  );
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  // Nothing from the test runner's own environment: each case sets what it means.
  for (const name of [
    'MEAL_NOTIFIER_CONFIG',
    'MEAL_API_BASE_URL',
    'MEAL_API_ORGANIZATION',
    'MEAL_API_TOKEN',
  ]) {
    vi.stubEnv(name, undefined);
  }
  vi.stubEnv('SOUTH_TOKEN', southToken);
  vi.stubEnv('NORTH_TOKEN', undefined);
  sim.requestLog.clear();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Each request's organization header and authorization, in order. */
function sentAs(): [string | undefined, string | undefined][] {
  return sim.requestLog
    .all()
    .map((request) => [request.headers['x-service-organization'], request.headers.authorization]);
}

async function establishments(
  args: string[],
): Promise<{ code: number | null; count?: number; stderr: string }> {
  const result = await runCliInProcess(['establishments', '--json', ...args]);
  return {
    code: result.code,
    stderr: result.stderr,
    ...(result.code === 0 ? { count: (JSON.parse(result.stdout) as unknown[]).length } : {}),
  };
}

describe('a command that reads a config', () => {
  it('given none, names both ways to give one and exits 2', async () => {
    expect(await runCliInProcess(['deliveries'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'meal-notifier: no config file: give --config FILE, or set MEAL_NOTIFIER_CONFIG\n',
    });
  });

  it('refuses two different files given to check-config', async () => {
    const result = await runCliInProcess(['check-config', oneSchool, '--config', twoSchools]);
    expect(result.stderr).toBe(
      `meal-notifier: two config files given, ${oneSchool} and --config ${twoSchools}: give one\n`,
    );
    expect(result.code).toBe(2);
  });
});

describe('orders and establishments with a config', () => {
  it('use the organization --organization names, with its own token, over MEAL_API_* in the environment', async () => {
    vi.stubEnv('MEAL_API_BASE_URL', DEAD_URL);
    vi.stubEnv('MEAL_API_TOKEN', 'not-this-one');
    const south = sim.organizations[1]?.id ?? '';
    expect(await establishments(['--config', twoSchools, '--organization', 'south academy'])).toEqual({
      code: 0,
      count: sim.world.establishments().length,
      stderr: '',
    });
    expect(await establishments(['--config', twoSchools, '--organization', south])).toMatchObject({
      code: 0,
    });
    expect(sentAs()).toEqual([
      [south, `Bearer ${southToken}`],
      [south, `Bearer ${southToken}`],
    ]);
  });

  it('take the only organization of MEAL_NOTIFIER_CONFIG when no base URL is given', async () => {
    vi.stubEnv('MEAL_NOTIFIER_CONFIG', oneSchool);
    const result = await runCliInProcess(['orders', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(new Set(sentAs().map(([organization]) => organization))).toEqual(
      new Set([sim.organizations[1]?.id]),
    );
  });

  it('leave MEAL_NOTIFIER_CONFIG aside when MEAL_API_BASE_URL gives the connection', async () => {
    vi.stubEnv('MEAL_NOTIFIER_CONFIG', join(dir, 'missing.json'));
    vi.stubEnv('MEAL_API_BASE_URL', sim.baseUrl);
    vi.stubEnv('MEAL_API_ORGANIZATION', sim.organizations[1]?.id ?? '');
    vi.stubEnv('MEAL_API_TOKEN', southToken);
    expect(await establishments([])).toMatchObject({ code: 0, stderr: '' });
  });

  it.each([
    [
      ['--config', '{two}'],
      '{two} has 2 organizations: pick one with --organization NAME or UUID ("North School", "South Academy")',
    ],
    [
      ['--config', '{two}', '--organization', 'East College'],
      '--organization "East College" names no organization of {two} (it has "North School", "South Academy")',
    ],
    [
      ['--config', '{two}', '--organization', 'North School'],
      'environment variable NORTH_TOKEN is not set or is empty: it holds the token of "North School" ($.organizations[0].token in {two})',
    ],
    [
      ['--config', '{two}', '--base-url', DEAD_URL],
      '--config and --base-url are two ways to give the connection: give one',
    ],
  ])('refuse %j before any request, with one line', async (args, message) => {
    const result = await establishments(args.map((arg) => arg.replace('{two}', twoSchools)));
    expect(result).toEqual({
      code: 2,
      stderr: `meal-notifier: ${message.replaceAll('{two}', twoSchools)}\n`,
    });
    expect(sim.requestLog.size).toBe(0);
  });
});
