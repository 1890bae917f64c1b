// The hourly e-mail digest as a user runs it: `meal-notifier poll` as a real process, its clock moved (by a
// test preload) to a few seconds before an hour, against the simulator on the same moved clock and a real
// SMTP server. Pins the promise: a `1h` digest arrives once per period, its counts equal to the
// events recorded in that period; the types it does not gather are still sent at once; and a restart
// after the period's end sends no second digest for it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGEST_CHECK_MS } from '../../cli/runtime/digestTicker.js';
import type { Order } from '../../shared/api/schemas.js';
import { digestEventId } from '../../shared/events/eventId.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import type { StoredEvent } from '../../shared/store/stateStore.js';
import { zonedIsoTime } from '../../shared/time/zonedTime.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type RunningCli, startCli } from '../support/runCli.js';
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../support/smtpReceiver.js';
import { type LogLine, logLines, when } from './jsonLogLines.js';

const HOUR_MS = 3_600_000;
/** How long before the hour the runner starts: room for its start-up, a baseline and one more cycle. */
const LEAD_MS = 12_000;
const SHIFTED_CLOCK = fileURLToPath(new URL('../support/shiftedClock.mjs', import.meta.url));
const DIGEST_TYPES = ['order.created', 'order.completed'] as const;

let sim: RunningSimulator;
let smtp: SmtpReceiver;
let dir: string;
let config: string;
/** The hour the test straddles, as the runner and the simulator see it. */
let boundary: number;
/** Added to the real clock by both the simulator and the runner. */
let offsetMs = 0;
const runners: RunningCli[] = [];

/** The next hour (whole hours in the world's zone) that is not local midnight, so "today" holds across it. */
function nextHourBoundary(nowMs: number, timeZone: string): number {
  let hour = Math.ceil((nowMs + LEAD_MS) / HOUR_MS) * HOUR_MS;
  if (zonedIsoTime(hour, timeZone).slice(11, 13) === '00') hour += HOUR_MS;
  return hour;
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 13,
    scenario: false,
    initialOrders: 12,
    clock: () => Date.now() + offsetMs,
  });
  boundary = nextHourBoundary(Date.now(), sim.world.timeZone);
  smtp = await startSmtpReceiver();
  dir = await mkdtemp(join(tmpdir(), 'digest-'));
  config = await writeNorthSchoolConfig(dir, sim, {
    organization: { pollIntervalSeconds: 2 },
    subscribers: [
      {
        id: 'office',
        type: 'email',
        to: ['office@example.org'],
        digest: { every: '1h', types: DIGEST_TYPES },
      },
    ],
    smtp: true,
    state: 'state.db',
  });
});

afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.stop('SIGKILL')));
  await Promise.all([smtp?.close(), sim?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

function startRunner(): RunningCli {
  const runner = startCli(['poll', '--config', config, '--log-format', 'json'], {
    NORTH_TOKEN: sim.token,
    SMTP_URL: smtp.url,
    NODE_OPTIONS: `--import ${SHIFTED_CLOCK}`,
    MEAL_NOTIFIER_TEST_CLOCK_OFFSET_MS: String(offsetMs),
  });
  runners.push(runner);
  return runner;
}

const cycles = (stderr: string) => logLines(stderr).filter((line) => line.kind === 'cycle');
const deliveries = (stderr: string, eventType: string) =>
  logLines(stderr).filter(
    (line) => line.kind === 'delivery' && line.eventType === eventType && line.state === 'delivered',
  );

/** Waits for the runner's log line of a delivered e-mail of that type (and reference) and hands it back. */
async function delivered(runner: RunningCli, eventType: string, reference?: string): Promise<LogLine> {
  const find = (stderr: string) =>
    deliveries(stderr, eventType).find((line) => reference === undefined || line.reference === reference);
  const stderr = await runner.waitForStderr(
    when(`a delivered ${eventType} ${reference ?? ''}`, (text) => find(text) !== undefined),
  );
  return find(stderr) as LogLine;
}

const digests = (): ReceivedMail[] =>
  smtp.received.filter((mail) => mail.headers.get('x-meal-order-event-type') === 'digest.email');

/** The "By type:" table of the digest's text part: event type → count. */
function countsByType(text: string): Record<string, number> {
  const section = text.split('By type:\n')[1]?.split('\n\n')[0] ?? '';
  return Object.fromEntries(
    section
      .split('\n')
      .slice(1)
      .map((row) => row.trim().split(/\s+/))
      .map(([type, count]) => [type, Number(count)]),
  );
}

describe('meal-notifier poll with an hourly e-mail digest', () => {
  it('sends one digest for the hour that ended, counting its events, and none again after a restart', async () => {
    offsetMs = boundary - LEAD_MS - Date.now();
    const today = sim.world.today();
    // Known to the runner from its baseline on: the orders that move later in the test.
    const [completed, canceled, lateCanceled, afterRestart] = [1, 2, 3, 4].map(() =>
      sim.world.addOrder({ pickupDate: today }),
    ) as [Order, Order, Order, Order];
    const first = startRunner();
    await first.waitForStderr(when('a baseline cycle', (text) => cycles(text).length >= 1));

    // Within the hour: two new orders and a completion (digested), a cancellation (sent at once).
    const created = [sim.world.addOrder({ pickupDate: today }), sim.world.addOrder({ pickupDate: today })];
    sim.world.setStatus(completed.uuid, 'completed');
    sim.world.setStatus(canceled.uuid, 'canceled');
    const canceledSent = await delivered(first, 'order.canceled', canceled.reference);
    expect(
      Date.parse(canceledSent.time),
      `the cancellation went out after the hour: start-up took more than ${LEAD_MS} ms`,
    ).toBeLessThan(boundary);
    expect(deliveries(first.output.stderr, 'order.created')).toEqual([]);
    expect(deliveries(first.output.stderr, 'order.completed')).toEqual([]);

    // The hour ends: its digest goes out within a digest check.
    const digestSent = await delivered(first, 'digest.email');
    expect(Date.parse(digestSent.time)).toBeGreaterThanOrEqual(boundary);
    const [digest] = digests();
    if (!digest?.text) throw new Error('the digest e-mail has no text part');
    const digestId = digestEventId('office', sim.organization.id, boundary - HOUR_MS);
    expect(digest.headers.get('x-meal-order-event-id')).toBe(digestId);
    expect(digest.text).toContain(`Event digest.email ${digestId}`);
    expect(digest.rcptTo).toEqual(['office@example.org']);

    // The next hour: a new order (digested next hour, not in this one) and a cancellation (at once).
    const late = sim.world.addOrder({ pickupDate: today });
    sim.world.setStatus(lateCanceled.uuid, 'canceled');
    await delivered(first, 'order.canceled', lateCanceled.reference);
    // A safe point: the runner has looked for ended periods again since it sent the digest.
    const sentAt = Date.parse(digestSent.time);
    await first.waitForStderr(
      when('a cycle after the next digest check', (text) =>
        cycles(text).some((line) => Date.parse(line.time) > sentAt + DIGEST_CHECK_MS + 1_000),
      ),
    );
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(digests()).toHaveLength(1);

    // A restart after the hour: it looks at the ended hour again at once, and sends nothing for it.
    const second = startRunner();
    await second.waitForStderr(when('a first cycle', (text) => cycles(text).length >= 1));
    sim.world.setStatus(afterRestart.uuid, 'canceled');
    await delivered(second, 'order.canceled', afterRestart.reference);
    expect(await second.stop('SIGTERM')).toBe(0);
    expect(deliveries(second.output.stderr, 'digest.email')).toEqual([]);
    expect(digests()).toHaveLength(1);

    // The counts are the events the state recorded in that hour, of the digest's types.
    const store = new SqliteStateStore({ path: join(dir, 'state.db') });
    let recorded: StoredEvent[];
    try {
      recorded = await store.listEvents(sim.organization.id, 0);
      expect(await store.outbox.listDeliveries({ status: 'queued' })).toEqual([]);
      const digestRows = (await store.outbox.listDeliveries()).filter((row) => row.eventId === digestId);
      expect(digestRows.map((row) => [row.subscriberId, row.status])).toEqual([['office', 'delivered']]);
    } finally {
      store.close();
    }
    const inHour = recorded.filter(
      (entry) =>
        entry.recordedAt >= boundary - HOUR_MS &&
        entry.recordedAt < boundary &&
        DIGEST_TYPES.some((type) => type === entry.event.type),
    );
    const expected: Record<string, number> = {};
    for (const entry of inHour) expected[entry.event.type] = (expected[entry.event.type] ?? 0) + 1;
    expect(expected).toEqual({ 'order.created': 2, 'order.completed': 1 });
    expect(countsByType(digest.text)).toEqual(expected);
    for (const order of [...created, completed]) expect(digest.text).toContain(order.reference);
    expect(digest.text).not.toContain(late.reference);
    expect(digest.text).not.toContain(canceled.reference);

    // Each cancellation came at once, as its own e-mail.
    const immediate = smtp.received.filter(
      (mail) => mail.headers.get('x-meal-order-event-type') === 'order.canceled',
    );
    expect(immediate.map((mail) => mail.headers.get('subject'))).toEqual([
      expect.stringContaining(`Order ${canceled.reference} canceled`),
      expect.stringContaining(`Order ${lateCanceled.reference} canceled`),
      expect.stringContaining(`Order ${afterRestart.reference} canceled`),
    ]);
    // Nothing else about orders: the digest and the three cancellations. (A closing the hour holds sends its
    // kitchen's prep summary too, whatever the hour the test runs at: not an order's e-mail.)
    expect(
      smtp.received.filter(
        (mail) => !mail.headers.get('x-meal-order-event-type')?.startsWith('establishment.'),
      ),
    ).toHaveLength(4);
    // The new order of the next hour was recorded after the boundary: the next hour's digest will hold it.
    expect(
      recorded.find((entry) => entry.event.type === 'order.created' && entry.event.subject === late.uuid)
        ?.recordedAt,
    ).toBeGreaterThanOrEqual(boundary);
  }, 60_000);
});
