// Tables fit the terminal: run as real processes with COLUMNS=80 (the width a terminal of 80 columns
// gives), `status`, `deliveries` and `orders` print no table line longer than 80, and lose nothing on
// the way: every event id stays whole, and every word of every error is there, wrapped on lines of its
// own under its row. At 60 columns, too narrow for the words of `orders`, each order is a block of lines.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { runCli } from '../support/runCli.js';
import { runCliInProcess } from '../support/runCliInProcess.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const NARROW = { COLUMNS: '80' };
let sim: RunningSimulator;
let receivers: WebhookReceiver[];
let dir: string;
let config: string;
const secret = makeWebhookSecret();

/** The table lines' longest, in characters (each of them one column wide here); the notes under a table
 * are sentences, which a terminal wraps as it does any. */
function longestTableLine(text: string): number {
  const tableLines = text.split('\n').filter((line) => /^[┌│├└]/.test(line));
  expect(tableLines.length).toBeGreaterThan(3);
  return Math.max(...tableLines.map((line) => [...line].length));
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 59, scenario: false, initialOrders: 40 });
  receivers = await Promise.all([
    // Busy for an hour: its deliveries stay queued, each with a next attempt and a last error.
    startWebhookReceiver({
      secrets: [secret],
      path: '/integrations/meal-orders/webhooks/order-events',
      respond: (_r, res) => void res.writeHead(429, { 'retry-after': '3600' }).end(),
    }),
    // Gone: its deliveries become dead letters.
    startWebhookReceiver({ secrets: [secret], respond: (_r, res) => void res.writeHead(410).end() }),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'table-width-'));
  config = join(dir, 'notifier.json');
  const hook = (id: string, receiver: WebhookReceiver | undefined) => ({
    id,
    type: 'webhook',
    url: receiver?.url,
    secret: { env: 'HOOK_SECRET' },
  });
  await writeFile(
    config,
    JSON.stringify({
      api: { baseUrl: sim.baseUrl },
      organizations: [
        {
          id: sim.organization.id,
          name: 'North School',
          token: { env: 'NORTH_TOKEN' },
          timeZone: sim.world.timeZone,
        },
        // Not an organization this token reads: its status carries a long last error.
        {
          id: '6f1c2b9e-3d4a-4e5f-8a7b-1c2d3e4f5a6b',
          name: 'South Academy Annex',
          token: { env: 'NORTH_TOKEN' },
          timeZone: sim.world.timeZone,
        },
      ],
      subscribers: [hook('accounting-automation', receivers[0]), hook('legacy-intranet', receivers[1])],
      state: { path: 'state.db' },
    }),
  );
  // The state to show, polled in this process: what is under test is how the tables print.
  vi.stubEnv('NORTH_TOKEN', sim.token);
  vi.stubEnv('HOOK_SECRET', secret);
  await runCliInProcess(['poll', '--config', config, '--once']);
  for (let i = 0; i < 3; i += 1) sim.world.addOrder({ pickupDate: sim.world.today() });
  await runCliInProcess(['poll', '--config', config, '--once']);
  vi.unstubAllEnvs();
}, 60_000);

afterAll(async () => {
  await Promise.all([...receivers.map((receiver) => receiver.close()), sim.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('tables on an 80-column terminal', () => {
  it('status and deliveries fit, with every event id whole and every word of every error', async () => {
    const listed = await runCliInProcess(['deliveries', '--config', config, '--json']);
    const deliveries = JSON.parse(listed.stdout) as Array<{ eventId: string; lastError: string | null }>;
    expect(deliveries.filter((delivery) => delivery.lastError !== null).length).toBeGreaterThanOrEqual(6);
    const statusReport = JSON.parse((await runCliInProcess(['status', '--config', config, '--json'])).stdout);
    const annex = statusReport.organizations.find(
      (organization: { name: string }) => organization.name === 'South Academy Annex',
    );
    const lastError = String(annex?.lastError);
    expect(lastError).toContain('403 (forbidden)');

    const [status, table] = await Promise.all([
      runCli(['status', '--config', config], NARROW),
      runCli(['deliveries', '--config', config], NARROW),
    ]);

    // A failing organization: unhealthy, and the table still fits.
    expect(status.code).toBe(1);
    expect(longestTableLine(status.stdout)).toBeLessThanOrEqual(80);
    expect(status.stdout).toContain('│ last error: ');
    for (const word of lastError.split(/\s+/)) expect(status.stdout).toContain(word);

    expect(table.code).toBe(0);
    expect(longestTableLine(table.stdout)).toBeLessThanOrEqual(80);
    for (const delivery of deliveries) {
      expect(table.stdout).toContain(delivery.eventId);
      for (const word of (delivery.lastError ?? '').split(/\s+/)) expect(table.stdout).toContain(word);
    }
  }, 60_000);

  it('orders fits, one row per order', async () => {
    const env = {
      ...NARROW,
      MEAL_API_BASE_URL: sim.baseUrl,
      MEAL_API_ORGANIZATION: sim.organization.id,
      MEAL_API_TOKEN: sim.token,
    };
    const result = await runCli(['orders', '--time-zone', sim.world.timeZone], env);

    expect(result.code).toBe(0);
    expect(longestTableLine(result.stdout)).toBeLessThanOrEqual(80);
    const [today, lastDay] = [sim.world.today(), addDays(sim.world.today(), 7)];
    const pending = sim.world.listOrders(
      (order) => order.status.value === 'pending' && order.pickup_at >= today && order.pickup_at <= lastDay,
    );
    expect(pending.length).toBeGreaterThan(3);
    for (const order of pending) expect(result.stdout).toMatch(new RegExp(`^│ ${order.reference} +│`, 'm'));
  }, 30_000);

  it('orders on 60 columns, too narrow for its words, shows each order as header and value lines', async () => {
    const result = await runCli(['orders', '--time-zone', sim.world.timeZone], {
      COLUMNS: '60',
      MEAL_API_BASE_URL: sim.baseUrl,
      MEAL_API_ORGANIZATION: sim.organization.id,
      MEAL_API_TOKEN: sim.token,
    });

    expect(result.code).toBe(0);
    const [today, lastDay] = [sim.world.today(), addDays(sim.world.today(), 7)];
    const pending = sim.world.listOrders(
      (order) => order.status.value === 'pending' && order.pickup_at >= today && order.pickup_at <= lastDay,
    );
    expect(pending.length).toBeGreaterThan(3);
    for (const order of pending) {
      expect(result.stdout).toMatch(new RegExp(`^Order +${order.reference}$`, 'm'));
    }
    expect(result.stdout).toMatch(/^Status +pending$/m);
    expect(result.stdout).not.toContain('│');
    // The count under the orders is a sentence, which the terminal wraps as it does any.
    const records = result.stdout.trimEnd().split('\n').slice(0, -1);
    for (const line of records) expect([...line].length).toBeLessThanOrEqual(60);
  }, 30_000);
});
