// Names from the API cannot take the operator's terminal over. An order whose reference, establishment,
// customer and notes carry ESC, BEL, CR, C1 and bidi sequences (a clipboard write, a screen clear, a line
// overwrite), in a config whose organization name does too and against a webhook receiver that answers
// with them, goes through poll, orders, establishments, events, deliveries, status, replay, send-test,
// check-config and simulate --receivers, each a real process: what they print for people shows each of
// those characters as its code, and what they print as JSON (--json, --events -, --log-format json)
// carries the data exactly. (runCli sets NO_COLOR and pipes the output: no colour code is expected.)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../shared/api/schemas.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type CliResult, type RunningCli, runCli, startCli } from '../support/runCli.js';
import { hostile, obeyedControls, shown } from '../support/terminalControls.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const ORGANIZATION = hostile('North School');
const ESTABLISHMENT = hostile('Cantina');
const CUSTOMER = hostile('Ana Silva');
const NOTES = hostile('Allergic to nuts');
/** What the busy receiver answers: a reason quotes it (with its C0 and C1 controls made spaces). */
const BUSY = hostile('busy');

const secret = makeWebhookSecret();
let sim: RunningSimulator;
let receivers: RunningCli;
let hook: WebhookReceiver;
let dir: string;
let config: string;
let env: Record<string, string>;
let order: Order;
let polled: CliResult;

beforeAll(async () => {
  sim = await startSimulator({ seed: 23, scenario: false, initialOrders: 0 });
  const [canteen] = sim.world.establishments();
  const [customer] = sim.world.customers();
  if (!canteen || !customer) throw new Error('the simulated world has no establishment or customer');
  sim.world.setEstablishmentName(canteen.uuid, ESTABLISHMENT);
  order = sim.world.addOrder({
    reference: hostile('NS-1'),
    establishment: canteen.uuid,
    pickupDate: sim.world.today(),
    customer: { ...customer, full_name: CUSTOMER },
    notes: NOTES,
  });
  // Busy for an hour: its delivery stays queued, the answer as its last error.
  hook = await startWebhookReceiver({
    secrets: [secret],
    respond: (_request, res) => void res.writeHead(429, { 'retry-after': '3600' }).end(BUSY),
  });
  // The Slack-like endpoint and the SMTP server of `simulate --receivers`, which print what they receive.
  receivers = startCli([
    'simulate',
    '--port',
    '0',
    '--speed',
    '0',
    '--orders',
    '0',
    '--receivers',
    '--show',
    'full',
  ]);
  const printed = await receivers.waitForStdout(/export SMTP_URL=\S+\n/);
  const exported = Object.fromEntries(
    [...printed.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]),
  );
  dir = await mkdtemp(join(tmpdir(), 'terminal-safe-'));
  config = await writeNorthSchoolConfig(dir, sim, {
    organization: { name: ORGANIZATION, emitExisting: true },
    subscribers: [
      { id: 'automation', type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
      { id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' } },
      { id: 'office', type: 'email', to: ['office@example.org'] },
    ],
    smtp: true,
    state: 'state.db',
  });
  env = {
    NORTH_TOKEN: sim.token,
    HOOK_SECRET: secret,
    SLACK_URL: exported.SLACK_URL ?? '',
    SMTP_URL: exported.SMTP_URL ?? '',
  };
  polled = await runCli(['poll', '--config', config, '--once', '--events', '-'], env);
}, 60_000);

afterAll(async () => {
  expect(await receivers?.stop('SIGINT')).toBe(0);
  await Promise.all([hook?.close(), sim?.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** Output for people: nothing in it a terminal would obey, and each of `texts` (data, shown) in it. */
function expectShown(output: string, ...texts: string[]): void {
  expect(obeyedControls(output)).toEqual([]);
  for (const text of texts) expect(output).toContain(text);
}

const api = () => ({
  MEAL_API_BASE_URL: sim.baseUrl,
  MEAL_API_ORGANIZATION: sim.organization.id,
  MEAL_API_TOKEN: sim.token,
});

describe('what the CLI prints for people shows control characters from data, not obeys them', () => {
  it('poll: its lines show them; --events - carries the event exactly', () => {
    expect(polled.code).toBe(0);
    expectShown(polled.stderr, shown('NS-1'), shown('Cantina'), shown('North School'));
    const [event] = polled.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(event.data.order).toMatchObject({
      reference: order.reference,
      establishment: { name: ESTABLISHMENT },
      notes: NOTES,
    });
    expect(event.data.organization.name).toBe(ORGANIZATION);
  });

  it('poll --log-format json: each record carries them exactly', async () => {
    const jsonConfig = await writeNorthSchoolConfig(
      dir,
      sim,
      { organization: { name: ORGANIZATION, emitExisting: true }, state: 'json-state.db' },
      'json-log.json',
    );
    const run = await runCli(['poll', '--config', jsonConfig, '--once', '--log-format', 'json'], env);
    expect(run.code).toBe(0);
    const records = run.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toContainEqual(
      expect.objectContaining({
        kind: 'event',
        reference: order.reference,
        establishment: ESTABLISHMENT,
        organization: ORGANIZATION,
        message: expect.stringContaining(order.reference),
      }),
    );
  });

  it('simulate --receivers: the Slack message and the e-mail it received show them', async () => {
    await receivers.waitForStdout(/\[slack #\S+\]/);
    const output = await receivers.waitForStdout(/\[mail to office@example\.org\]/);
    // Each message as the notifier wrote it: Slack's text keeps ESC and BEL (its CR a space), the
    // e-mail's text part makes every C0 and C1 control a space; the override is in both.
    expectShown(
      output,
      '[slack #kitchen] 🆕 New order NS-1\\x1b]52;c;SGVsbG8=\\x07\\x1b[2J X\\x9b31m\\u202e!',
      'Customer:       Ana Silva ]52;c;SGVsbG8= [2J X 31m\\u202e!',
    );
  });

  it('orders: the table shows them; --json carries the order exactly', async () => {
    const day = sim.world.today();
    const table = await runCli(['orders', '--from', day, '--to', day], api());
    expect(table.code).toBe(0);
    expectShown(table.stdout + table.stderr, shown('NS-1'), shown('Cantina'), shown('Ana Silva'));
    const json = await runCli(['orders', '--from', day, '--to', day, '--json'], api());
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({
        reference: order.reference,
        establishment: expect.objectContaining({ name: ESTABLISHMENT }),
        customer: expect.objectContaining({ full_name: CUSTOMER }),
        notes: NOTES,
      }),
    ]);
  });

  it('establishments: the table shows them; --json carries the name exactly', async () => {
    const table = await runCli(['establishments'], api());
    expect(table.code).toBe(0);
    expectShown(table.stdout + table.stderr, shown('Cantina'));
    const json = await runCli(['establishments', '--json'], api());
    expect(JSON.parse(json.stdout)).toContainEqual(expect.objectContaining({ name: ESTABLISHMENT }));
  });

  it("events: the table shows them, the receiver's answer too; --json carries the reference exactly", async () => {
    const table = await runCli(['events', '--config', config], env);
    expect(table.code).toBe(0);
    // The reason quotes the answer with its C0 and C1 controls made spaces; the override stays, shown.
    expectShown(table.stdout + table.stderr, shown('NS-1'), 'busy ]52;c;SGVsbG8= [2J X 31m\\u202e!');
    const json = await runCli(['events', '--config', config, '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({
        type: 'order.created',
        order: expect.objectContaining({ reference: order.reference }),
      }),
    ]);
  });

  it('deliveries: the table shows them; --json carries the reference exactly', async () => {
    const table = await runCli(['deliveries', '--config', config], env);
    expect(table.code).toBe(0);
    expectShown(table.stdout + table.stderr, shown('NS-1'), '\\u202e!');
    const json = await runCli(['deliveries', '--config', config, '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ subscriberId: 'automation', reference: order.reference }),
    ]);
  });

  it("status: the tables show the organization's name; --json carries it exactly", async () => {
    const table = await runCli(['status', '--config', config], env);
    expectShown(table.stdout + table.stderr, shown('North School'));
    const json = await runCli(['status', '--config', config, '--json'], env);
    expect(JSON.parse(json.stdout).organizations).toEqual([expect.objectContaining({ name: ORGANIZATION })]);
  });

  it('replay: its delivery line shows them', async () => {
    const run = await runCli(['replay', '--config', config, '--subscriber', 'kitchen', '--since', '1h'], env);
    expect(run.code).toBe(0);
    expectShown(run.stdout + run.stderr, 'replaying 1 event to kitchen', shown('NS-1'));
  });

  it("send-test: the line quoting the receiver's answer shows them", async () => {
    const run = await runCli(['send-test', '--config', config, '--subscriber', 'automation'], env);
    expect(run.code).toBe(1);
    expectShown(run.stdout + run.stderr, 'answered 429: busy', '\\u202e!');
  });

  it('check-config --ping: the line naming the organization shows them', async () => {
    const run = await runCli(['check-config', config, '--ping'], env);
    expect(run.code).toBe(0);
    expectShown(run.stdout + run.stderr, `${shown('North School')}: OK`, 'config OK');
  });
});
