// `orders --config` as a real process beside a poller of the same config: its requests count in the
// budget the poller counts in, the config's state file, so that the two never exceed the token's minute
// between them. Without a state file (no poller has run) it keeps a budget of its own and creates none.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../shared/api/requestBudget.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { runCli } from '../support/runCli.js';

let sim: RunningSimulator;
let dir: string;
let config: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 9, scenario: false, initialOrders: 60 });
  dir = await mkdtemp(join(tmpdir(), 'orders-shared-budget-'));
  config = await writeNorthSchoolConfig(dir, sim, { state: 'state.db' });
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('meal-notifier orders --config beside a poller', () => {
  it('creates no state file where no poller has run', async () => {
    const result = await runCli(['orders', '--config', config], { NORTH_TOKEN: sim.token });
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, 'state.db'))).toBe(false);
  });

  it("counts its requests in the state file's budget, where the poller counts its own", async () => {
    // The state file a poller of this config keeps.
    const state = new SqliteStateStore({ path: join(dir, 'state.db') });
    try {
      const budget = new RequestBudget({ token: sim.token, store: state.budgetCounters });
      expect(await budget.remaining()).toBe(50);
      const before = sim.requestLog.size;

      const result = await runCli(['orders', '--config', config, '--status', 'completed'], {
        NORTH_TOKEN: sim.token,
      });

      expect(result.code).toBe(0);
      const sent = sim.requestLog.size - before;
      expect(sent).toBeGreaterThan(0);
      expect(await budget.remaining()).toBe(50 - sent);
    } finally {
      state.close();
    }
  });
});
