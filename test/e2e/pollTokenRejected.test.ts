// A token revoked while the runner runs, through a real `meal-notifier poll` process against the loopback
// simulator: the API answers 401 to North School's token only. North School is marked "token rejected: put a
// new token" in `status` (table and --json), /healthz and /metrics, in the one failure line every command
// prints; South Academy, on a token of its own, is polled on meanwhile. North School is tried again only
// after five minutes (the runner's clock is moved past that wait by test/support/fastForwardClock.mjs, not
// slept through), and once the API accepts its token again it recovers in the same process, no restart.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_REJECTED_RETRY_MS } from '../../shared/contracts/tokenRejected.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { sample } from '../support/prometheusText.js';
import { type RunningCli, runCli, startCli } from '../support/runCli.js';
import { type LogLine, ofKind, when } from './jsonLogLines.js';

const FAST_FORWARD = fileURLToPath(new URL('../support/fastForwardClock.mjs', import.meta.url));
const REQUESTS_PER_MINUTE = 600;

let sim: RunningSimulator;
let dir: string;
let config: string;
let runner: RunningCli;
let north: { id: string; token: string };
let south: { id: string; token: string };

beforeAll(async () => {
  sim = await startSimulator({
    seed: 61,
    scenario: false,
    initialOrders: 4,
    requestsPerMinute: REQUESTS_PER_MINUTE,
    organizations: [{ name: 'North School' }, { name: 'South Academy' }],
  });
  // One token per organization, each reading only its own (the simulator's default).
  const tokenOf = (id: string) => {
    const grant = sim.access.list().find(({ organizations }) => organizations.includes(id));
    if (!grant) throw new Error(`no token reads ${id}`);
    return { id, token: grant.token };
  };
  const [first, second] = sim.organizations;
  if (!first || !second) throw new Error('the simulator has two organizations');
  north = tokenOf(first.id);
  south = tokenOf(second.id);
  dir = await mkdtemp(join(tmpdir(), 'poll-token-rejected-'));
  const organization = (id: string, name: string, variable: string) => ({
    id,
    name,
    token: { env: variable },
    timeZone: 'Europe/Lisbon',
    // A short cycle, one pending listing and no sweep: cycles come every couple of seconds.
    pollIntervalSeconds: 2,
    cadence: 'fixed',
    statuses: ['pending'],
    window: { daysAhead: 0 },
  });
  config = join(dir, 'notifier.json');
  await writeFile(
    config,
    JSON.stringify({
      api: { baseUrl: sim.baseUrl, requestsPerMinute: REQUESTS_PER_MINUTE },
      organizations: [
        organization(north.id, 'North School', 'NORTH_TOKEN'),
        organization(south.id, 'South Academy', 'SOUTH_TOKEN'),
      ],
      subscribers: [],
      state: { path: join(dir, 'state.db') },
    }),
  );
  runner = startCli(['poll', '--config', config, '--metrics-port', '0', '--log-format', 'json'], {
    NORTH_TOKEN: north.token,
    SOUTH_TOKEN: south.token,
    NODE_OPTIONS: `--import ${FAST_FORWARD}`,
    // Only a wait as long as the rejected token's retry is moved past; the 2 s gaps run in real time.
    MEAL_NOTIFIER_TEST_FAST_FORWARD_AT_LEAST_MS: String(TOKEN_REJECTED_RETRY_MS / 2),
  });
});

afterAll(async () => {
  await runner?.stop();
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const cyclesOf = (stderr: string, name: string): LogLine[] =>
  ofKind(stderr, 'cycle').filter((line) => line.organization === name);

/** Waits until `name` has had more than `after` cycles and the last of them meets `predicate`. */
async function cycleOf(name: string, after: number, predicate: (line: LogLine) => boolean): Promise<LogLine> {
  const stderr = await runner.waitForStderr(
    when(`a cycle of ${name} after #${after}`, (text) => {
      const cycles = cyclesOf(text, name);
      const last = cycles.at(-1);
      return cycles.length > after && last !== undefined && predicate(last);
    }),
  );
  return cyclesOf(stderr, name).at(-1) as LogLine;
}

async function endpoint(): Promise<string> {
  const stderr = await runner.waitForStderr(
    when('the metrics line', (text) =>
      ofKind(text, 'lifecycle').some((line) => line.event === 'metrics_listening'),
    ),
  );
  return String(ofKind(stderr, 'lifecycle').find((line) => line.event === 'metrics_listening')?.url);
}

async function get(path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${await endpoint()}${path}`);
  return { status: response.status, body: await response.text() };
}

const LINE =
  'North School: token rejected: put a new token; the API answered 401 (unauthorized): the value of NORTH_TOKEN is wrong, expired or revoked';

describe('a token the API rejects while the runner runs', () => {
  it('marks its organization "token rejected: put a new token" everywhere, polls the others on, retries it slowly and recovers it without a restart', async () => {
    // Both polled well first.
    await cycleOf('North School', 0, (line) => line.ok === true);
    await cycleOf('South Academy', 0, (line) => line.ok === true);
    expect((await get('/healthz')).status).toBe(200);

    sim.access.revoke(north.token);
    const rejected = await cycleOf('North School', 0, (line) => line.tokenRejected === true);
    expect(rejected.message).toMatch(/^North School: token rejected, tried again in \d+ s$/);
    const retryInMs = Date.parse(String(rejected.nextPollAt)) - Date.parse(String(rejected.time));
    expect(retryInMs).toBeGreaterThan(TOKEN_REJECTED_RETRY_MS - 10_000);
    expect(retryInMs).toBeLessThanOrEqual(TOKEN_REJECTED_RETRY_MS);
    // The failure line follows the cycle's, as every command words it.
    await runner.waitForStderr(
      when('the failure line', (text) =>
        ofKind(text, 'failure').some((line) => line.message === `  ${LINE}`),
      ),
    );

    // /healthz and /metrics of the runner itself.
    const health = await get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toContain(`\n${LINE} (rejected since `);
    expect(health.body).toContain('tried again every 5 min)');
    const metrics = (await get('/metrics')).body;
    expect(sample(metrics, 'meal_notifier_token_rejected', { organization: 'North School' })).toBe(1);
    expect(sample(metrics, 'meal_notifier_token_rejected', { organization: 'South Academy' })).toBe(0);

    // `status`, another process reading the state file: the same line, in the table and in --json.
    const [status, statusJson] = await Promise.all([
      runCli(['status', '--config', config]),
      runCli(['status', '--config', config, '--json']),
    ]);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(`${LINE} (rejected since `);
    expect(status.stdout).not.toMatch(/South Academy: /);
    const report = JSON.parse(statusJson.stdout) as {
      organizations: { name: string; lastError: string | null; tokenRejectedSince: string | null }[];
      health: { problems: string[] };
    };
    const [northStatus, southStatus] = report.organizations;
    expect(northStatus).toMatchObject({ name: 'North School', lastError: LINE });
    // Since the cycle that met the 401 began: before its line was printed, after the token was revoked.
    const since = Date.parse(String(northStatus?.tokenRejectedSince));
    expect(since).toBeLessThanOrEqual(Date.parse(String(rejected.time)));
    expect(since).toBeGreaterThan(Date.parse(String(rejected.time)) - 60_000);
    expect(southStatus).toMatchObject({ name: 'South Academy', lastError: null, tokenRejectedSince: null });
    expect(report.health.problems).toEqual([expect.stringMatching(/^North School: token rejected: /)]);

    // South Academy is polled on, several times, while North School waits out its retry untried.
    const southBefore = cyclesOf(runner.output.stderr, 'South Academy').length;
    const northBefore = cyclesOf(runner.output.stderr, 'North School').length;
    await cycleOf('South Academy', southBefore + 2, (line) => line.ok === true);
    expect(cyclesOf(runner.output.stderr, 'North School')).toHaveLength(northBefore);

    // The token is accepted again; the retry's wait is moved past rather than slept through.
    sim.access.grant(north.token, north.id);
    runner.signal('SIGUSR2');
    const recovered = await cycleOf('North School', northBefore, (line) => line.ok === true);
    expect(recovered.tokenRejected).toBeUndefined();
    // South Academy's last success is five minutes old on the moved clock until its next cycle.
    await cycleOf(
      'South Academy',
      cyclesOf(runner.output.stderr, 'South Academy').length,
      (line) => line.ok === true,
    );
    const healed = await get('/healthz');
    expect(healed).toEqual({ status: 200, body: 'ok\n' });
    expect(
      sample((await get('/metrics')).body, 'meal_notifier_token_rejected', { organization: 'North School' }),
    ).toBe(0);
    const after = JSON.parse(
      (await runCli(['status', '--config', config, '--json'])).stdout,
    ) as typeof report;
    expect(after.organizations[0]).toMatchObject({ lastError: null, tokenRejectedSince: null });
  }, 120_000);
});
