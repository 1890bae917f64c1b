// `meal-notifier poll` against an API nothing listens for, run as a real process: the failure line says
// what it means and what to check in the words `check-config --ping` uses, not a bare ECONNREFUSED, the
// cycle stops at the first listing instead of trying every one the same way, and its status line says it
// could not reach the API, with no budget figures or deferred listings, which do not apply.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { closedPort } from '../support/loopbackServer.js';
import { runCli } from '../support/runCli.js';

/** Two CLI processes side by side. */
const TWO_RUNS = timeoutFor({ cliRuns: 2 });

let dir: string;
let config: string;
let origin: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poll-unreachable-'));
  origin = `http://127.0.0.1:${await closedPort()}`;
  config = await writeNorthSchoolConfig(dir, `${origin}/api/v1/admin`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('meal-notifier poll against an unreachable API', () => {
  it('explains the failure as check-config --ping does, once, and exits 1', {
    timeout: TWO_RUNS,
  }, async () => {
    const env = { NORTH_TOKEN: 'token' };
    const [polled, pinged] = await Promise.all([
      runCli(['poll', '--config', config, '--once'], env),
      runCli(['check-config', config, '--ping'], env),
    ]);

    const explanation =
      `cannot reach ${origin} (connection refused: nothing listens at that address and port): ` +
      "check $.api.baseUrl, DNS and this machine's network";
    expect(pinged.stdout).toContain(`North School: ${explanation}\n`);
    expect(polled.code).toBe(1);
    expect(polled.stderr).toMatch(/^North School: could not reach the API, next in \d+ s$/m);
    expect(polled.stderr).not.toMatch(/deferred|left this minute|requests?\b/);
    const failures = polled.stderr.split('\n').filter((line) => line.startsWith('  North School: '));
    expect(failures).toEqual([`  North School: ${explanation}`]);
    expect(polled.stderr).not.toContain('ECONNREFUSED');
  });
});
