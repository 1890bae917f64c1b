// Who polls an organization when runners share a state file, with real processes. A runner killed with
// SIGKILL in the middle of a cycle leaves its lease behind; the runner started in its place on the same
// host sees that the holder's process is gone and polls at once, instead of skipping every cycle until
// the lease runs out. And a second live runner never polls while the first runs: it says so once, stays
// quiet however many cycles it stands by, and takes over when the first one stops.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type HoldingProxy, startHoldingProxy } from '../support/holdingProxy.js';
import { type RunningCli, startCli } from '../support/runCli.js';
import { type LogLine, logLines, ofKind, when } from './jsonLogLines.js';

let sim: RunningSimulator;
let proxy: HoldingProxy;
let dir: string;
/** Every runner a test starts: one a failed assertion left running is killed after the test. */
const runners: RunningCli[] = [];

beforeAll(async () => {
  sim = await startSimulator({ seed: 29, scenario: false, initialOrders: 30, requestsPerMinute: 600 });
  proxy = await startHoldingProxy(sim.baseUrl);
  dir = await mkdtemp(join(tmpdir(), 'poll-lease-'));
});

afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop('SIGKILL')));
});

afterAll(async () => {
  await proxy.close();
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

const writeConfig = (name: string, baseUrl: string): Promise<string> =>
  writeNorthSchoolConfig(
    dir,
    sim,
    {
      api: { baseUrl, requestsPerMinute: 600 },
      organization: { pollIntervalSeconds: 2 },
      state: `${name}.db`,
    },
    `${name}.json`,
  );

function startRunner(config: string): RunningCli {
  const runner = startCli(['poll', '--config', config, '--log-format', 'json'], { NORTH_TOKEN: sim.token });
  runners.push(runner);
  return runner;
}

const cycles = (stderr: string) => ofKind(stderr, 'cycle');
const withOutcome = (stderr: string, outcome: string): LogLine[] =>
  cycles(stderr).filter((line) => line.outcome === outcome);

describe('meal-notifier poll runners sharing one state file', () => {
  it('polls at once when restarted after a runner was killed mid-cycle holding the lease', async () => {
    const config = await writeConfig('killed', proxy.baseUrl);
    const first = startRunner(config);
    // The proxy holds the first request unanswered: the cycle has taken the lease and is in flight.
    await proxy.firstHeld();
    expect(await first.stop('SIGKILL')).toBeNull();
    const store = new SqliteStateStore({ path: join(dir, 'killed.db') });
    try {
      // What the killed runner left behind: a lease still running for minutes.
      expect(await store.acquireLease(sim.organization.id, 'someone-else', Date.now(), 1)).toBe(false);
    } finally {
      store.close();
    }
    proxy.letGo();

    const second = startRunner(config);
    await second.waitForStderr(when('a first cycle', (text) => cycles(text).length >= 1));
    expect(cycles(second.output.stderr)[0]).toMatchObject({ outcome: 'polled', ok: true });
    expect(second.output.stderr).not.toMatch(/skipped \(another run/);
    const tookOver = logLines(second.output.stderr).filter((line) => line.event === 'lease-taken-over');
    expect(tookOver).toHaveLength(1);
    expect(tookOver[0]?.message).toContain('no longer running');
    expect(await second.stop('SIGTERM')).toBe(0);
  }, 30_000);

  it('keeps a second live runner from polling, says so once, and lets it take over when the first stops', async () => {
    const config = await writeConfig('shared', sim.baseUrl);
    const first = startRunner(config);
    await first.waitForStderr(when('a polled cycle', (text) => withOutcome(text, 'polled').length >= 1));
    const second = startRunner(config);
    await second.waitForStderr(when('a first cycle', (text) => cycles(text).length >= 1));
    expect(cycles(second.output.stderr)[0]?.outcome).toBe('skipped');
    // The first runner's next four cycles span several of the second one's 2-second intervals.
    const polledBefore = withOutcome(first.output.stderr, 'polled').length;
    await first.waitForStderr(
      when('four more cycles', (text) => withOutcome(text, 'polled').length >= polledBefore + 4),
    );
    expect(withOutcome(second.output.stderr, 'polled')).toEqual([]);
    expect(await first.stop('SIGTERM')).toBe(0);

    // Given back on a clean stop: the second runner's next cycle polls.
    await second.waitForStderr(when('a polled cycle', (text) => withOutcome(text, 'polled').length >= 1));
    expect(await second.stop('SIGTERM')).toBe(0);
    const skipped = withOutcome(second.output.stderr, 'skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]?.message).toMatch(
      /^North School: skipped \(another run, pid \d+ on [^,]+, is polling this organization\)/,
    );
    // Nor did it deliver the shared outbox while the first ran: it said that once too.
    const standby = /another run \(\S+\) delivers this state file's outbox; this one leaves delivery to it/g;
    expect(second.output.stderr.match(standby)).toHaveLength(1);
    expect(first.output.stderr).not.toMatch(standby);
    // It did stand by for more than one cycle: it only said so once.
    const summary = ofKind(second.output.stderr, 'summary')[0];
    const [tally] = (summary?.organizations ?? []) as Array<{ cycles: number }>;
    expect(tally?.cycles).toBeGreaterThanOrEqual(3);
  }, 40_000);
});
