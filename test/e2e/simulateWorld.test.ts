// The simulator page's canteen walkthrough (docs/simulator.md), run as a new user would: `simulate --world canteen-afternoon` in one
// process, then the config it printed, saved to a file, checked against it with the exports it printed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, runCli, startCli } from '../support/runCli.js';

let simulator: RunningCli;
let printed: string;
let dir: string;

beforeAll(async () => {
  simulator = startCli(['simulate', '--port', '0', '--world', 'canteen-afternoon']);
  printed = await simulator.waitForStdout(/^}$/m);
  dir = await mkdtemp(join(tmpdir(), 'simulate-world-'));
});

afterAll(async () => {
  await simulator.stop();
  await rm(dir, { recursive: true, force: true });
});

function exported(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
}

describe('meal-notifier simulate --world canteen-afternoon', () => {
  it('names the world and prints its one organization with its token', () => {
    const env = exported(printed);
    expect(printed).toContain('World canteen-afternoon:');
    expect(printed).toContain(
      `  Canteen School  MEAL_API_ORGANIZATION=${env.MEAL_API_ORGANIZATION} MEAL_API_TOKEN=${env.MEAL_API_TOKEN}`,
    );
  });

  it('prints a config that watches today ±3 days and passes check-config --ping with the printed exports', async () => {
    const json = printed.slice(printed.indexOf('\n{\n') + 1);
    const config = JSON.parse(json) as { organizations: Array<{ window: unknown; name: string }> };
    expect(config.organizations).toEqual([
      expect.objectContaining({ name: 'Canteen School', window: { daysBack: 3, daysAhead: 3 } }),
    ]);
    const file = join(dir, 'notifier.json');
    await writeFile(file, json);
    const result = await runCli(['check-config', file, '--ping'], exported(printed));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Canteen School');
  });
});
