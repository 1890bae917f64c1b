// Two organizations polled with one token never take more than that token's budget between them. The
// budget is small in both the simulator and the config (30 a minute, all of them usable)
// against a poll interval of 2 s, so the budget, not the interval, sets the pace: each organization gets
// half the token's share and its cycles are spaced to spend no more. The simulator's request log,
// counted per token over sliding 60-second windows, is the judge. And when another run sharing the state
// file has taken the token's minute, a cycle waits for room before its first request rather than sending
// it, and SIGTERM still stops the runner at once.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../shared/api/requestBudget.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { startCli } from '../support/runCli.js';
import { when } from './jsonLogLines.js';

const BUDGET = 30;
/** What the runner allows itself: the whole budget. */
const USABLE = 30;
const TOKEN = 'sim_shared_token_for_two_schools';
let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 73,
    initialOrders: 12,
    requestsPerMinute: BUDGET,
    organizations: [{ name: 'North School' }, { name: 'South Academy' }],
    tokens: [{ token: TOKEN, organizations: ['North School', 'South Academy'] }],
  });
  dir = await mkdtemp(join(tmpdir(), 'poll-shared-token-'));
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(name: string): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(
    path,
    JSON.stringify({
      api: { baseUrl: sim.baseUrl, requestsPerMinute: BUDGET },
      organizations: sim.organizations.map((organization) => ({
        id: organization.id,
        name: organization.name,
        token: { env: 'SHARED_TOKEN' },
        timeZone: organization.world.timeZone,
        pollIntervalSeconds: 2,
      })),
      state: { path: `${name}.db` },
    }),
  );
  return path;
}

/** The most requests the token made within any 60-second window. */
function busiestMinute(times: number[]): number {
  return Math.max(
    0,
    ...times.map((at) => times.filter((other) => other > at - 60_000 && other <= at).length),
  );
}

/** Cycle lines of `name` that polled (human format). */
function polled(stderr: string, name: string): number {
  return stderr.match(new RegExp(`^${name}: \\d+ requests `, 'gm'))?.length ?? 0;
}

describe('meal-notifier poll with two organizations sharing one token', () => {
  it('paces both organizations within the token’s budget, and still stops at once', async () => {
    const config = await writeConfig('paced');
    const before = sim.requestLog.size;
    const runner = startCli(['poll', '--config', config], { SHARED_TOKEN: TOKEN });
    // Two cycles each: the second is as late as the organization's half of the budget makes it.
    await runner.waitForStderr(
      when(
        'two polled cycles of each organization',
        (text) => polled(text, 'North School') >= 2 && polled(text, 'South Academy') >= 2,
      ),
    );
    const stopping = Date.now();
    expect(await runner.stop('SIGTERM')).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);

    const requests = sim.requestLog.all().slice(before);
    expect(requests.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    expect(busiestMinute(requests.map((request) => request.at))).toBeLessThanOrEqual(USABLE);
    for (const organization of sim.organizations) {
      const cycles = requests
        .filter((request) => request.headers['x-service-organization'] === organization.id)
        .filter((request) => request.query.status === 'pending')
        .map((request) => request.at);
      expect(cycles.length).toBeGreaterThanOrEqual(2);
      // Half the token's usable 27 a minute is one request every 4.4 s at the most; not every 2 s. The pace
      // holds on average (a cycle comes when its share has paid for an average one), not to the millisecond
      // between two cycles on a loaded machine.
      const first = cycles[0] ?? 0;
      const last = cycles.at(-1) ?? 0;
      expect((last - first) / (cycles.length - 1)).toBeGreaterThanOrEqual(60_000 / (USABLE / 2));
    }
    expect(runner.output.stderr).toMatch(/Stopped after \d+ s/);
  }, 40_000);

  it('sends nothing while another run holds the token’s minute, and SIGTERM ends the wait at once', async () => {
    const config = await writeConfig('waiting');
    // Another run on the same state file has just reserved every request the token may make this minute.
    const other = new SqliteStateStore({ path: join(dir, 'waiting.db') });
    try {
      const budget = new RequestBudget({
        token: TOKEN,
        requestsPerMinute: BUDGET,
        store: other.budgetCounters,
      });
      expect(await budget.reserve(USABLE, USABLE)).toBe(USABLE);
    } finally {
      other.close();
    }
    const before = sim.requestLog.size;
    const runner = startCli(['poll', '--config', config], { SHARED_TOKEN: TOKEN });
    await runner.waitForStderr(/^Polling North School at most every 2 s/m);
    // The first cycles start at once and wait for room that the minute will not free for a while.
    const stopping = Date.now();
    expect(await runner.stop('SIGTERM')).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(sim.requestLog.size).toBe(before);
    expect(runner.output.stderr).toMatch(/Stopped after \d+ s/);
  }, 20_000);
});
