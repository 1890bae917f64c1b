// `meal-notifier poll --once` as a real process against the canteen-afternoon world (one school, 2,900
// orders over today ±3 days, 200 of them pending, three establishments) served at the API's own limit of
// 50 requests a minute: the first cycle walks the whole pending window within what the budget allows
// itself (all 50), the simulator never has to answer 429, and the run exits 0.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { runCli } from '../support/runCli.js';

/** What the budget may use of the API's 50 a minute: all of it. */
const USABLE = 50;
let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ world: 'canteen-afternoon', requestsPerMinute: 50 });
  dir = await mkdtemp(join(tmpdir(), 'poll-canteen-'));
});

function pendingInWindow(): number {
  const today = sim.world.today();
  return sim.world.listOrders(
    (o) =>
      o.status.value === 'pending' && o.pickup_at >= addDays(today, -3) && o.pickup_at <= addDays(today, 3),
  ).length;
}

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('meal-notifier poll --once on the canteen-afternoon world', () => {
  it('keeps the first cycle within the usable budget, with no 429, and exits 0', async () => {
    const config = join(dir, 'notifier.json');
    await writeFile(
      config,
      JSON.stringify({
        api: { baseUrl: sim.baseUrl },
        organizations: [
          {
            id: sim.organization.id,
            name: sim.organization.name,
            token: { env: 'CANTEEN_TOKEN' },
            timeZone: sim.notifier.timeZone,
            window: { daysBack: 3, daysAhead: 3 },
          },
        ],
        state: { path: 'state.db' },
      }),
    );
    const before = sim.requestLog.size;
    // The world moves on its own (a new order every 20 s or so): count its pending orders either side.
    const pendingBefore = pendingInWindow();

    const result = await runCli(['poll', '--config', config, '--once'], { CANTEEN_TOKEN: sim.token });

    const pendingAfter = pendingInWindow();
    expect(result.code).toBe(0);
    const requests = sim.requestLog.all().slice(before);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThanOrEqual(USABLE);
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    // Pending was walked whole, each of its pages once: the budget bounded the cycle, not what it saw.
    const pages = requests
      .filter((request) => request.query.status === 'pending')
      .map((request) => Number(request.query.page ?? 1))
      .sort((a, b) => a - b);
    expect(pages).toEqual(pages.map((_, index) => index + 1));
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(Math.min(pendingBefore, pendingAfter) / 25));
    expect(pages.length).toBeLessThanOrEqual(Math.ceil(Math.max(pendingBefore, pendingAfter) / 25));
    expect(pages.length).toBeGreaterThan(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^Canteen School: ${requests.length} requests \\(.*; \\d+/${USABLE} left this minute\\)`,
        'm',
      ),
    );
  });
});
