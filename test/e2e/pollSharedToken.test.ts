// Two organizations polled with one token never take more than that token's budget between them. The
// budget is small in both the simulator and the config (10 a minute against about 8 requests per round
// every 2 s), so it binds within seconds; the simulator's request log, counted per token over sliding
// 60-second windows, is the judge. When the budget is spent, cycles are skipped rather than left waiting,
// and SIGTERM still stops the runner at once.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { startCli } from '../support/runCli.js';
import { when } from './jsonLogLines.js';

const BUDGET = 10;
/** What the runner allows itself: the budget less its 10 % safety margin. */
const USABLE = 9;
const TOKEN = 'sim_shared_token_for_two_schools';
let sim: RunningSimulator;
let dir: string;
let config: string;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 73,
    initialOrders: 12,
    requestsPerMinute: BUDGET,
    organizations: [{ name: 'North School' }, { name: 'South Academy' }],
    tokens: [{ token: TOKEN, organizations: ['North School', 'South Academy'] }],
  });
  dir = await mkdtemp(join(tmpdir(), 'poll-shared-token-'));
  config = join(dir, 'notifier.json');
  await writeFile(
    config,
    JSON.stringify({
      api: { baseUrl: sim.baseUrl, requestsPerMinute: BUDGET },
      organizations: sim.organizations.map((organization) => ({
        id: organization.id,
        name: organization.name,
        token: { env: 'SHARED_TOKEN' },
        timeZone: organization.world.timeZone,
        pollIntervalSeconds: 2,
      })),
      state: { path: 'state.db' },
    }),
  );
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** The most requests the token made within any 60-second window. */
function busiestMinute(times: number[]): number {
  return Math.max(
    0,
    ...times.map((at) => times.filter((other) => other > at - 60_000 && other <= at).length),
  );
}

describe('meal-notifier poll with two organizations sharing one token', () => {
  it('stays within the token’s budget, skips cycles instead of waiting, and still stops at once', async () => {
    const runner = startCli(['poll', '--config', config], { SHARED_TOKEN: TOKEN });
    // Each organization has been told at least twice that the budget is spent.
    const skipped = (name: string) => new RegExp(`${name}: skipped \\(request budget exhausted`, 'g');
    await runner.waitForStderr(
      when(
        'two budget-exhausted cycles for each organization',
        (text) =>
          (text.match(skipped('North School'))?.length ?? 0) >= 2 &&
          (text.match(skipped('South Academy'))?.length ?? 0) >= 2,
      ),
    );
    const stopping = Date.now();
    expect(await runner.stop('SIGTERM')).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);

    const requests = sim.requestLog.all();
    expect(requests.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const polled = new Set(requests.map((request) => request.headers['x-service-organization']));
    expect(polled).toEqual(new Set(sim.organizations.map((organization) => organization.id)));
    expect(busiestMinute(requests.map((request) => request.at))).toBeLessThanOrEqual(BUDGET);
    // The budget bit (its usable share was all used) and the simulator never had to refuse a request.
    expect(requests).toHaveLength(USABLE);
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    expect(runner.output.stderr).toMatch(/Stopped after \d+ s/);
  }, 40_000);
});
