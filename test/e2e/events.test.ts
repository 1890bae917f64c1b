// `meal-notifier events`, run as a real process on a state file two real `poll --once` runs wrote: the
// recorded events newest first, each with what became of it per subscriber (delivered, queued for a
// retry, dead), filtered by age, type and order, as a table that fits the terminal or as JSON with ISO
// 8601 times. Also `deliveries --json`, whose times are ISO 8601 too.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../shared/api/schemas.js';
import { type ListedEvent, ListedEventSchema } from '../../shared/operations/eventHistory.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { runCli } from '../support/runCli.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let sim: RunningSimulator;
let dir: string;
let config: string;
let receivers: WebhookReceiver[];
let canceledOrder: Order;
let createdOrders: Order[];
const secret = makeWebhookSecret();

beforeAll(async () => {
  sim = await startSimulator({ seed: 37, scenario: false, initialOrders: 12 });
  dir = await mkdtemp(join(tmpdir(), 'events-'));
  receivers = await Promise.all([
    // Busy for an hour: its deliveries stay queued, with the 429 as their last error.
    startWebhookReceiver({
      secrets: [secret],
      respond: (_r, res) => void res.writeHead(429, { 'retry-after': '3600' }).end(),
    }),
    // Gone: the subscriber is disabled and its deliveries become dead letters.
    startWebhookReceiver({ secrets: [secret], respond: (_r, res) => void res.writeHead(410).end() }),
    startWebhookReceiver({ secrets: [secret] }),
  ]);
  const [busy, gone, fine] = receivers;
  const hook = (id: string, receiver: WebhookReceiver | undefined, filter?: unknown) => ({
    id,
    type: 'webhook',
    url: receiver?.url,
    secret: { env: 'HOOK_SECRET' },
    ...(filter ? { filter } : {}),
  });
  config = await writeNorthSchoolConfig(dir, sim, {
    subscribers: [
      hook('automation', busy),
      hook('legacy', gone),
      hook('office', fine),
      hook('cancellations', fine, { types: ['order.canceled'] }),
    ],
    state: 'state.db',
  });
  const env = { NORTH_TOKEN: sim.token, HOOK_SECRET: secret };
  const toCancel = sim.world.addOrder({ pickupDate: sim.world.today() });
  expect((await runCli(['poll', '--config', config, '--once'], env)).code).toBe(0);
  createdOrders = [
    sim.world.addOrder({ pickupDate: sim.world.today() }),
    sim.world.addOrder({ pickupDate: sim.world.today() }),
  ];
  canceledOrder = sim.world.setStatus(toCancel.uuid, 'canceled');
  const second = await runCli(['poll', '--config', config, '--once'], env);
  expect(second.code).toBe(0);
  expect(second.stderr).toMatch(/North School: .*, 3 events,/);
}, 60_000);

afterAll(async () => {
  await Promise.all([...(receivers ?? []).map((receiver) => receiver.close()), sim?.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** Lines of a table row, matched cell by cell (regular expressions), whatever the padding. */
function row(...cells: string[]): RegExp {
  return new RegExp(`│ ${cells.join('\\s*│ ')}\\s*│`);
}

/** The text of one column of a table's body, its wrapped lines joined with spaces. */
function columnText(table: string, column: number): string {
  return table
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .slice(1)
    .map((line) => line.split('│')[column + 1]?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
}

describe('meal-notifier events', () => {
  it('lists every event newest first as JSON, with ISO 8601 times and each subscriber’s delivery state', async () => {
    const result = await runCli(['events', '--config', config, '--json']);
    expect(result.code).toBe(0);
    const events = (JSON.parse(result.stdout) as unknown[]).map((entry) => ListedEventSchema.parse(entry));
    expect(events.map((event) => `${event.type} ${event.order.reference}`).sort()).toEqual(
      [
        `order.canceled ${canceledOrder.reference}`,
        ...createdOrders.map((order) => `order.created ${order.reference}`),
      ].sort(),
    );
    const recorded = events.map((event) => Date.parse(event.recordedAt));
    expect(recorded).toEqual([...recorded].sort((a, b) => b - a));
    for (const event of events) expect(event.recordedAt).toMatch(ISO);

    const canceled = events.find((event) => event.type === 'order.canceled') as ListedEvent;
    expect(canceled.order).toEqual({ uuid: canceledOrder.uuid, reference: canceledOrder.reference });
    expect(canceled.deliveries).toEqual([
      {
        subscriberId: 'automation',
        status: 'queued',
        attempts: 1,
        nextAttemptAt: expect.stringMatching(ISO),
        deliveredAt: null,
        lastError: expect.stringContaining('429'),
      },
      expect.objectContaining({
        subscriberId: 'cancellations',
        status: 'delivered',
        deliveredAt: expect.stringMatching(ISO),
      }),
      expect.objectContaining({
        subscriberId: 'legacy',
        status: 'dead',
        nextAttemptAt: null,
        lastError: expect.stringContaining('410'),
      }),
      expect.objectContaining({ subscriberId: 'office', status: 'delivered', attempts: 1 }),
    ]);
    // The retry after the 429 is about an hour away.
    const retryAt = Date.parse(canceled.deliveries[0]?.nextAttemptAt ?? '');
    expect(retryAt - Date.parse(canceled.recordedAt)).toBeGreaterThan(50 * 60_000);
    // A created event is not for the cancellations subscriber.
    const created = events.find((event) => event.type === 'order.created') as ListedEvent;
    expect(created.deliveries.map((delivery) => delivery.subscriberId)).toEqual([
      'automation',
      'legacy',
      'office',
    ]);
    // Nobody opted in to contact details here.
    const email = canceledOrder.customer.parent?.email;
    if (email) expect(result.stdout).not.toContain(email);
  });

  it('finds one order’s events by reference, in any case, and by type, as a table that fits the terminal', async () => {
    const result = await runCli(
      ['events', '--config', config, '--order', canceledOrder.reference.toLowerCase(), '--type', 'canceled'],
      { COLUMNS: '80' },
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.stdout).toMatch(row('Recorded', 'Event', 'Order', 'Deliveries'));
    expect(result.stdout).toMatch(
      row('\\d{4}-\\d{2}-\\d{2}', 'order.canceled', canceledOrder.reference, 'automation: queued,'),
    );
    // The deliveries column wraps to fit: its text, read across the lines, says what became of the event.
    expect(columnText(result.stdout, 3)).toMatch(
      /^automation: queued, attempt 2 in 60 min; last error: .*429.* cancellations: delivered legacy: dead(?: after 1 attempt|, not attempted); last error: .*410.* office: delivered$/,
    );
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^1 order\\.canceled event of order ${canceledOrder.reference.toLowerCase()}, newest first$`,
      ),
    );
  });

  it('finds an order by uuid, and says when the limit left older events out', async () => {
    const [order] = createdOrders;
    const byUuid = await runCli(['events', '--config', config, '--order', order?.uuid ?? '', '--json']);
    expect((JSON.parse(byUuid.stdout) as ListedEvent[]).map((event) => event.order.reference)).toEqual([
      order?.reference,
    ]);

    const limited = await runCli(['events', '--config', config, '--since', '2h', '--limit', '1']);
    expect(limited.code).toBe(0);
    expect(limited.stdout).toMatch(
      /^1 event since \S+ \S+Z \(2 h ago\), newest first\nmore match: raise --limit \(now 1\), or narrow with --since, --type or --order$/m,
    );
  }, 40_000);

  it('refuses an unknown type with the nearest one, before reading anything', async () => {
    const result = await runCli(['events', '--config', config, '--type', 'created,cancelled']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'meal-notifier: --type "cancelled" is not an event type (did you mean order.canceled?); known: order.created, order.completed, order.canceled, order.archived, order.status_changed, order.rescheduled, order.updated, establishment.prep_summary, establishment.prep_changed, notifier.catch_up\n',
    );
    expect(result.stdout).toBe('');
  });

  it('takes an age in seconds, and reads no state file that is not there: it creates none', async () => {
    const fresh = await writeNorthSchoolConfig(
      dir,
      sim,
      { organization: { timeZone: 'UTC' }, state: 'fresh.db' },
      'fresh.json',
    );
    const result = await runCli(['events', '--config', fresh, '--since', '1s']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^no events since \S+ \S+Z \(1 s ago\)\n$/);
    expect(result.stderr).toBe(
      `no state file at ${join(dir, 'fresh.db')} yet: nothing was polled with this config\n`,
    );
    expect(existsSync(join(dir, 'fresh.db'))).toBe(false);
  });
});

describe('meal-notifier deliveries --json', () => {
  it('gives its times as ISO 8601 strings', async () => {
    const result = await runCli(['deliveries', '--config', config, '--json']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    const queued = rows.filter((row) => row.status === 'queued');
    const dead = rows.filter((row) => row.status === 'dead');
    expect(queued).toHaveLength(3);
    expect(dead).toHaveLength(3);
    for (const delivery of queued) {
      expect(delivery).toMatchObject({
        subscriberId: 'automation',
        nextAttemptAt: expect.stringMatching(ISO),
        deliveredAt: null,
      });
    }
    for (const delivery of dead)
      expect(delivery).toMatchObject({ subscriberId: 'legacy', nextAttemptAt: null });
  });
});
