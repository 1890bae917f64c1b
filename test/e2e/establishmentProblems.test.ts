// Orders first (issue 23): a world whose establishments records lack `working_days` still delivers every
// order event, with the problem reported. `meal-notifier poll --once` runs as a real process against the
// simulator behind a proxy that drops `working_days` from one establishment record: every cycle exits 0,
// every order event reaches the webhook receiver (the corrupted establishment's orders too), the warning
// line names the organization, the establishment and the field, and `status` names them with what the
// unknown closing times cost (no prep summary for it, the cadence fixed).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Establishment } from '../../shared/api/schemas.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { type RewritingProxy, startRewritingProxy } from '../support/rewritingProxy.js';
import { runCli } from '../support/runCli.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { ofKind } from './jsonLogLines.js';

/** Two `poll --once` and two `status` processes, one after another. */
const FOUR_RUNS = timeoutFor({ cliRuns: 4 });

let sim: RunningSimulator;
let proxy: RewritingProxy;
let receiver: WebhookReceiver;
let dir: string;
let broken: Establishment;
let whole: Establishment;
const secret = makeWebhookSecret();

/** GET /establishments with `working_days` dropped from the broken establishment's record. */
function withoutWorkingDays(url: URL, body: unknown): unknown {
  if (!url.pathname.endsWith('/establishments')) return undefined;
  const envelope = body as { data: Array<Record<string, unknown>> };
  return {
    ...envelope,
    data: envelope.data.map((record) => {
      if (record.uuid !== broken.uuid) return record;
      const { working_days: _dropped, ...rest } = record;
      return rest;
    }),
  };
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 23, scenario: false, initialOrders: 30 });
  const [first, second] = sim.world.establishments();
  if (!first || !second) throw new Error('the simulator has at least two establishments');
  [broken, whole] = [first, second];
  proxy = await startRewritingProxy(sim.baseUrl, withoutWorkingDays);
  receiver = await startWebhookReceiver({ secrets: [secret] });
  dir = await mkdtemp(join(tmpdir(), 'establishment-problems-'));
});

afterAll(async () => {
  await Promise.all([proxy.close(), receiver.close(), sim.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('an establishments record without working_days', () => {
  it('fails no cycle: every order event is delivered, the problem warned about and shown by status', {
    timeout: FOUR_RUNS,
  }, async () => {
    const config = await writeNorthSchoolConfig(dir, sim, {
      api: { baseUrl: proxy.baseUrl },
      subscribers: [{ id: 'automation', type: 'webhook', url: receiver.url, secret: { env: 'HOOK_SECRET' } }],
      state: 'state.db',
    });
    const env = { NORTH_TOKEN: sim.token, HOOK_SECRET: secret };

    const first = await runCli(['poll', '--config', config, '--once'], env);
    expect(first.code, first.stderr).toBe(0);
    const warning = first.stderr.split('\n').find((line) => line.includes('listing establishments'));
    expect(warning).toMatch(
      new RegExp(
        `^ {2}warning: North School: listing establishments, page 1, establishment ${broken.uuid}: skipped malformed record \\(record #\\d+ on the page: working_days: `,
      ),
    );
    expect(first.stderr).toMatch(/^North School: .*1 listing problem, next in \d+ s$/m);
    expect(first.stderr).not.toMatch(/failed|not refreshed/);

    // Orders at both establishments, new and changed, after the first cycle.
    const today = sim.world.today();
    const atBroken = sim.world.addOrder({ pickupDate: today, establishment: broken.uuid });
    const atWhole = sim.world.addOrder({ pickupDate: today, establishment: whole.uuid });
    const [pending] = sim.world.listOrders(
      (order) =>
        order.status.value === 'pending' &&
        order.pickup_at >= today &&
        order.establishment.uuid === broken.uuid &&
        order.uuid !== atBroken.uuid,
    );
    if (!pending) throw new Error('the world has no pending order at the broken establishment');
    sim.world.setStatus(pending.uuid, 'canceled');

    const second = await runCli(
      ['poll', '--config', config, '--once', '--events', '-', '--log-format', 'json'],
      env,
    );
    expect(second.code, second.stderr).toBe(0);
    const [cycle] = ofKind(second.stderr, 'cycle');
    expect(cycle).toMatchObject({ ok: true, cadence: 'fixed' });
    const events = second.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; type: string; subject: string });
    const orderEvents = events.filter((event) => event.type.startsWith('order.'));
    expect(orderEvents.map((event) => `${event.type} ${event.subject}`).sort()).toEqual(
      [
        `order.created ${atBroken.uuid}`,
        `order.created ${atWhole.uuid}`,
        `order.canceled ${pending.uuid}`,
      ].sort(),
    );
    const delivered = new Set(receiver.received.map((request) => String(request.headers['webhook-id'])));
    for (const event of orderEvents) expect(delivered.has(event.id), event.type).toBe(true);

    const json = await runCli(['status', '--config', config, '--json']);
    expect(json.code).toBe(0);
    const [organization] = JSON.parse(json.stdout).organizations;
    expect(organization).toMatchObject({ consecutiveFailures: 0, lastError: null, unreadableOrders: [] });
    expect(organization.unreadableEstablishments).toEqual([
      {
        uuid: broken.uuid,
        readAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        page: 1,
        detail: expect.stringMatching(/working_days/),
        consequence: expect.stringContaining('no prep summary'),
      },
    ]);
    const table = await runCli(['status', '--config', config]);
    expect(table.stdout).toMatch(
      new RegExp(
        `North School: 1 establishment record unreadable in the last read of GET /establishments:\\n {2}${broken.uuid}: page 1 \\(record #\\d+ on the page: working_days: .*\\), read .* ago; closing times unknown: cadence fixed, no prep summary for it`,
      ),
    );
  });
});
