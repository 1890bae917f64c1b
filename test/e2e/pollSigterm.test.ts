// The long-running runner stopped by SIGTERM in the middle of a cycle, then started again: every
// transition the simulated world made after the baseline is recorded exactly once and delivered exactly
// once, with its signature verified. The simulator answers slowly (its latency fault), so the signal lands
// while the cycle's listings are still being fetched; its clock is frozen at the end, so the last cycles
// see the world's final state. Logs are JSON (--log-format json), which the test reads as records.
//
// The world moves so that every transition is one that pending and its look-ups see: each order stays
// pending for several cycles (longer than the restart takes), and nothing is archived while the test
// runs. Transitions only the terminal sweep sees (a completed order archived, an order created and
// resolved between two looks) come within the sweep's period, a minute at the least; the integration
// test of the poll cycle covers those on a virtual clock.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrderEvent, OrderEventSchema } from '../../shared/events/orderEvent.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import { addDays } from '../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { type RunningCli, startCli } from '../support/runCli.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { type LogLine, logLines, ofKind, when } from './jsonLogLines.js';

/** Two runners, started and stopped one after the other, and some six of their cycles 2 s apart, each with requests the simulator answers 150 ms late. */
const RESTART = timeoutFor({ cliRuns: 2, realSeconds: 20 });

let frozenAt: number | undefined;
/**
 * The world's time stands still from the first runner's stop to the second's first cycle, however long a
 * loaded machine takes to start it: no order is created and resolved unseen in between (only the sweep,
 * minutes later, would see that), so the premise above holds whatever the restart takes.
 */
let pausedSince: number | undefined;
let pausedMs = 0;
/** The simulated world's clock: the wall clock less the pause, standing still at the end. */
const worldNow = () => (frozenAt ?? pausedSince ?? Date.now()) - pausedMs;
let sim: RunningSimulator;
let receiver: WebhookReceiver;
let dir: string;
let config: string;
const secret = makeWebhookSecret();

beforeAll(async () => {
  sim = await startSimulator({
    seed: 61,
    clock: worldNow,
    organizations: [{ name: 'North School', initialOrders: 20 }],
    // Generous, so that no listing is ever deferred for budget: this test is about shutdown.
    requestsPerMinute: 600,
    // Pending for 4 to 12 s each; archived a day after, so never while the test runs.
    scenario: { orderIntervalMs: 700, resolveAfterMs: 8_000, archiveAfterMs: 86_400_000, pickupDaysAhead: 2 },
    faults: { latencyMs: 150 },
  });
  receiver = await startWebhookReceiver({ secrets: [secret] });
  dir = await mkdtemp(join(tmpdir(), 'poll-sigterm-'));
  config = await writeNorthSchoolConfig(dir, sim, {
    api: { requestsPerMinute: 600 },
    organization: { pollIntervalSeconds: 2 },
    subscribers: [{ id: 'automation', type: 'webhook', url: receiver.url, secret: { env: 'HOOK_SECRET' } }],
    state: 'state.db',
  });
});

afterAll(async () => {
  await Promise.all([receiver.close(), sim.close()]);
  await rm(dir, { recursive: true, force: true });
});

function startRunner(): RunningCli {
  return startCli(['poll', '--config', config, '--events', '-', '--verbose', '--log-format', 'json'], {
    NORTH_TOKEN: sim.token,
    HOOK_SECRET: secret,
  });
}

function eventsOf(stdout: string): OrderEvent[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => OrderEventSchema.parse(JSON.parse(line)));
}

const cycles = (stderr: string) => ofKind(stderr, 'cycle');
const delivered = (stderr: string) => ofKind(stderr, 'delivery').filter((line) => line.state === 'delivered');

/** A request of a cycle that has not reported yet: the pending listing comes first, look-ups may follow. */
function midCycle(stderr: string): boolean {
  const lines = logLines(stderr);
  const lastCycle = lines.map((line) => line.kind).lastIndexOf('cycle');
  if (lastCycle < 0 || delivered(stderr).length === 0) return false;
  return lines
    .slice(lastCycle + 1)
    .some((line) => line.kind === 'request' && String(line.endpoint).includes('status=pending'));
}

describe('meal-notifier poll, stopped by SIGTERM mid-cycle and restarted', () => {
  it('records every transition exactly once and delivers each exactly once across the restart', {
    timeout: RESTART,
  }, async () => {
    const first = startRunner();
    await first.waitForStderr(when('the baseline cycle', (text) => cycles(text).length >= 1));
    // Whatever changes from here on must reach the receiver.
    const afterBaseline = worldNow();
    await first.waitForStderr(when('a request in flight after a delivery', midCycle));
    const cyclesAtSignal = cycles(first.output.stderr).length;
    pausedSince = Date.now();
    expect(await first.stop('SIGTERM')).toBe(0);

    const firstLog: LogLine[] = logLines(first.output.stderr);
    // The cycle in flight finished, whole, and reported; then the runner said so and summed up.
    expect(cycles(first.output.stderr)).toHaveLength(cyclesAtSignal + 1);
    expect(cycles(first.output.stderr).at(-1)?.ok).toBe(true);
    expect(firstLog.filter((line) => line.kind === 'lifecycle').map((line) => line.event)).toEqual([
      'started',
      'stopping',
    ]);
    expect(firstLog.at(-1)?.kind).toBe('summary');

    const second = startRunner();
    await second.waitForStderr(when('a first cycle', (text) => cycles(text).length >= 1));
    pausedMs += Date.now() - (pausedSince ?? Date.now());
    pausedSince = undefined;
    frozenAt = Date.now();
    // The second cycle from now started after the freeze: it sees the world's final state.
    await second.waitForStderr(when('two cycles after the freeze', (text) => cycles(text).length >= 3));
    const recorded = [...eventsOf(first.output.stdout), ...eventsOf(second.output.stdout)];
    await second.waitForStderr(
      when(
        'every event delivered',
        (text) => delivered(first.output.stderr).length + delivered(text).length >= recorded.length,
      ),
    );
    expect(await second.stop('SIGTERM')).toBe(0);
    const all = [...eventsOf(first.output.stdout), ...eventsOf(second.output.stdout)];

    // Recorded exactly once: no id twice, no transition twice, and the state file agrees with stdout.
    const ids = all.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The log has one record of each, by id, beside the events on stdout.
    const logged = [first, second].flatMap((run) => ofKind(run.output.stderr, 'event'));
    expect(logged.map((line) => String(line.eventId)).sort()).toEqual([...ids].sort());
    const transitions = all.map((event) => `${event.type} ${event.subject}`);
    expect(new Set(transitions).size).toBe(transitions.length);
    const store = new SqliteStateStore({ path: join(dir, 'state.db') });
    try {
      const stored = await store.listEvents(sim.organization.id);
      expect(stored.map(({ event }) => event.id).sort()).toEqual([...ids].sort());
    } finally {
      store.close();
    }

    // Nothing lost: every transition the world made after the baseline, within the watched window.
    const today = sim.world.today();
    const lastDay = addDays(today, 7);
    const expected: string[] = [];
    for (const order of sim.world.listOrders((o) => o.pickup_at >= today && o.pickup_at <= lastDay)) {
      const afterTheBaseline = (timestamp: string | null) =>
        timestamp !== null && Date.parse(timestamp) > afterBaseline;
      if (afterTheBaseline(order.created_at)) expected.push(`order.created ${order.uuid}`);
      if (afterTheBaseline(order.completed_at)) expected.push(`order.completed ${order.uuid}`);
      if (afterTheBaseline(order.canceled_at)) expected.push(`order.canceled ${order.uuid}`);
      if (order.status.value === 'archived' && afterTheBaseline(order.updated_at))
        expected.push(`order.archived ${order.uuid}`);
    }
    expect(expected.length).toBeGreaterThan(3);
    // Not only new orders: some were resolved after the baseline too.
    expect(expected.some((transition) => /^order\.(completed|canceled) /.test(transition))).toBe(true);
    expect(transitions).toEqual(expect.arrayContaining(expected));

    // Delivered exactly once each, under its event id, with a signature the receiver verified.
    const received = receiver.received.map((request) => String(request.headers['webhook-id']));
    expect([...received].sort()).toEqual([...ids].sort());
    for (const request of receiver.received) expect(request.verifiedBy).toEqual([true]);
  });
});
