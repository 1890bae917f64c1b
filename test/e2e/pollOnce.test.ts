// `meal-notifier poll --config FILE --once --events -`, run as a real process against the simulator, walks
// the acceptance path: a silent first cycle, exactly the transitions that happened, a quiet cycle,
// and no false event while one listing keeps failing.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderEventSchema } from '../../shared/events/orderEvent.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type FailingProxy, startFailingProxy } from '../support/failingProxy.js';
import { runCli } from '../support/runCli.js';

let sim: RunningSimulator;
let proxy: FailingProxy;
let failCompleted = false;
let dir: string;
let env: Record<string, string>;

const writeConfig = (name: string, baseUrl: string): Promise<string> =>
  writeNorthSchoolConfig(
    dir,
    sim,
    { api: { baseUrl }, organization: { window: { daysBack: 0, daysAhead: 7 } }, state: `${name}.db` },
    name,
  );

function eventsOf(stdout: string): Array<{ type: string; reference: string }> {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => OrderEventSchema.parse(JSON.parse(line)))
    .map((event) => ({ type: event.type, reference: event.data.order.reference }));
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 33, scenario: false, initialOrders: 90 });
  proxy = await startFailingProxy(
    sim.baseUrl,
    (url) => failCompleted && url.searchParams.get('status') === 'completed',
  );
  dir = await mkdtemp(join(tmpdir(), 'poll-once-'));
  env = { NORTH_TOKEN: sim.token };
});

afterAll(async () => {
  await proxy.close();
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('meal-notifier poll --once', () => {
  it('is silent on the first cycle, then reports exactly what changed, then nothing', async () => {
    const config = await writeConfig('main.json', sim.baseUrl);
    const before = sim.requestLog.size;
    const first = await runCli(['poll', '--config', config, '--once', '--events', '-'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    // Every request but the establishments' (their closing times, read once an hour) went to pending,
    // counted against the budget's usable 50.
    const line =
      /^North School: (\d+) requests \(pending (\d+), establishments 1; \d+\/50 left this minute\), \d+ orders seen, 0 events(?:, cadence \w+)?, next in \d+ s$/m.exec(
        first.stderr,
      );
    expect(Number(line?.[1])).toBe(Number(line?.[2]) + 1);
    // The terminal listings are the slow sweep's, a few pages a cycle: the first cycle walks pending alone.
    const firstRequests = sim.requestLog.all().slice(before);
    const orderRequests = firstRequests.filter((request) => request.path.endsWith('/orders'));
    expect(orderRequests.length).toBe(firstRequests.length - 1);
    expect(orderRequests.map((request) => request.query.status)).toEqual(orderRequests.map(() => 'pending'));

    const today = sim.world.today();
    const pending = sim.world.listOrders((o) => o.status.value === 'pending' && o.pickup_at >= today);
    const [done, canceled, gone] = pending;
    if (!done || !canceled || !gone) throw new Error('fixture has too few pending orders');
    sim.world.setStatus(done.uuid, 'completed');
    sim.world.setStatus(canceled.uuid, 'canceled');
    sim.world.setStatus(gone.uuid, 'completed');
    sim.world.setStatus(gone.uuid, 'archived');
    const created = sim.world.addOrder({ pickupDate: today });

    const second = await runCli(['poll', '--config', config, '--once', '--events', '-'], env);
    expect(second.code).toBe(0);
    expect(eventsOf(second.stdout)).toEqual(
      expect.arrayContaining([
        { type: 'order.completed', reference: done.reference },
        { type: 'order.canceled', reference: canceled.reference },
        { type: 'order.completed', reference: gone.reference },
        { type: 'order.archived', reference: gone.reference },
        { type: 'order.created', reference: created.reference },
      ]),
    );
    expect(eventsOf(second.stdout)).toHaveLength(5);
    // The three orders that left pending were found with look-ups, counted apart on the cycle line.
    expect(second.stderr).toMatch(
      /^North School: \d+ requests \(pending \d+, look-up \d+(, sweep \d+)?; \d+\/50 left this minute\), \d+ orders seen, 5 events(, cadence \w+)?, next in \d+ s$/m,
    );
    expect(second.stdout).not.toContain('"email"');

    const third = await runCli(['poll', '--config', config, '--once', '--events', '-'], env);
    expect(third.code).toBe(0);
    expect(third.stdout).toBe('');
  });

  it('emits no false event while the completed listing keeps failing, and catches up after', async () => {
    const config = await writeConfig('flaky.json', proxy.baseUrl);
    expect((await runCli(['poll', '--config', config, '--once'], env)).code).toBe(0);
    const today = sim.world.today();
    const [order] = sim.world.listOrders((o) => o.status.value === 'pending' && o.pickup_at >= today);
    if (!order) throw new Error('fixture has no pending order');
    sim.world.setStatus(order.uuid, 'completed');

    failCompleted = true;
    const failing = await runCli(['poll', '--config', config, '--once', '--events', '-'], env);
    failCompleted = false;
    expect(failing.code).toBe(1);
    expect(failing.stdout).toBe('');
    expect(failing.stderr).toMatch(
      /^ {2}North School: the API failed on its side \(500\) on GET \/orders\?status=completed/m,
    );

    const recovered = await runCli(['poll', '--config', config, '--once', '--events', '-'], env);
    expect(recovered.code).toBe(0);
    expect(eventsOf(recovered.stdout)).toEqual([{ type: 'order.completed', reference: order.reference }]);
  }, 60_000);

  it('exits 1 with one line naming the organization when the token is rejected', async () => {
    const config = await writeConfig('rejected.json', sim.baseUrl);
    const result = await runCli(['poll', '--config', config, '--once'], { NORTH_TOKEN: 'not-the-token' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'North School: token rejected: put a new token; the API answered 401 (unauthorized): the value of NORTH_TOKEN is wrong, expired or revoked',
    );
    expect(result.stderr.match(/put a new token/g)).toHaveLength(1);
    expect(result.stderr).not.toContain('not-the-token');
  });

  it('refuses a bad config before any request, naming every problem and unset secret in one pass', async () => {
    const path = join(dir, 'bad.json');
    const config = {
      api: { baseUrl: sim.baseUrl },
      organizations: [
        {
          id: sim.organization.id,
          name: 'North School',
          token: { env: 'NORTH_TOKEN' },
          timeZone: 'Europe/Lisbn',
          colour: 'blue',
        },
      ],
      subscribers: [
        {
          id: 'automation',
          type: 'webhook',
          url: 'hooks.example.org/orders',
          secret: { env: 'HOOK_SECRET' },
        },
      ],
      state: { path: 'bad.db' },
    };
    await writeFile(path, JSON.stringify(config, null, 2));
    const before = sim.requestLog.size;
    const result = await runCli(['poll', '--config', path, '--once'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      [
        `meal-notifier: ${path}: 5 problems`,
        '  $.organizations[0].token: environment variable NORTH_TOKEN is not set or is empty',
        '  $.organizations[0].timeZone: "Europe/Lisbn" is not an IANA time zone (did you mean "Europe/Lisbon"?)',
        '  $.organizations[0]: unknown key "colour"; known keys: id, name, token, timeZone, window, pollIntervalSeconds, sweepIntervalSeconds, cadence, coldSweepMinutes, emitExisting, statuses, establishments, highlightWords',
        '  $.subscribers[0].url: must be an https:// URL, or http:// on loopback (127.0.0.0/8, ::1, localhost)',
        '  $.subscribers[0].secret: environment variable HOOK_SECRET is not set or is empty',
        '',
      ].join('\n'),
    );
    expect(sim.requestLog.size).toBe(before);
  });

  it('names a missing token variable without printing any value', async () => {
    const config = await writeConfig('unset.json', sim.baseUrl);
    const result = await runCli(['poll', '--config', config, '--once'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '$.organizations[0].token: environment variable NORTH_TOKEN is not set or is empty',
    );
  });
});
