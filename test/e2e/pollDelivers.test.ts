// Delivery as a user runs it: `meal-notifier poll` as a real process against the simulator, delivering to
// a loopback webhook receiver that verifies signatures with `standardwebhooks`, a Slack-like endpoint and
// an SMTP server. Pins the promises: every event reaches exactly the subscribers whose filters
// match, a first-attempt 500 or 429 is delivered later under the same id, a 410 disables its subscriber,
// and nothing is lost across a restart between attempts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Establishment } from '../../shared/api/schemas.js';
import type { OrderEvent } from '../../shared/events/orderEvent.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type RunningCli, runCli, startCli } from '../support/runCli.js';
import { type SlackReceiver, startSlackReceiver } from '../support/slackReceiver.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtpReceiver.js';
import {
  makeWebhookSecret,
  type Responder,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhookReceiver.js';

let sim: RunningSimulator;
let dir: string;
let slack: SlackReceiver;
let smtp: SmtpReceiver;
let receivers: WebhookReceiver[];
let establishments: [Establishment, Establishment];
const secrets = [makeWebhookSecret(), makeWebhookSecret()];

beforeEach(async () => {
  sim = await startSimulator({ seed: 51, scenario: false, initialOrders: 30 });
  dir = await mkdtemp(join(tmpdir(), 'poll-delivers-'));
  slack = await startSlackReceiver();
  smtp = await startSmtpReceiver();
  receivers = [];
  const [first, second] = sim.world.establishments();
  if (!first || !second) throw new Error('the simulator has at least two establishments');
  establishments = [first, second];
});

afterEach(async () => {
  await Promise.all([
    ...receivers.map((receiver) => receiver.close()),
    slack.close(),
    smtp.close(),
    sim.close(),
  ]);
  await rm(dir, { recursive: true, force: true });
});

async function webhook(respond?: Responder): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver({ secrets, ...(respond ? { respond } : {}) });
  receivers.push(receiver);
  return receiver;
}

const writeConfig = (subscribers: unknown[]): Promise<string> =>
  writeNorthSchoolConfig(dir, sim, { subscribers, smtp: true, state: 'state.db' });

const env = () => ({
  NORTH_TOKEN: sim.token,
  HOOK_SECRET_NEW: secrets[0] ?? '',
  HOOK_SECRET_OLD: secrets[1] ?? '',
  SLACK_A: slack.webhookUrl('a'),
  SLACK_B: slack.webhookUrl('b'),
  SMTP_URL: smtp.url,
});

/** Event ids in arrival order, each request's signature verified by both rotation secrets. */
function webhookIds(receiver: WebhookReceiver): string[] {
  for (const request of receiver.received) expect(request.verifiedBy).toEqual([true, true]);
  return receiver.received.map((request) => String(request.headers['webhook-id']));
}

describe('meal-notifier poll delivers', () => {
  it('routes each event to exactly the matching subscribers, retries a 500 and a 429 under the same id, and disables on 410', async () => {
    const firstAttempts = new Set<string>();
    let failures = 0;
    const automation = await webhook((request, res) => {
      const id = String(request.headers['webhook-id']);
      if (firstAttempts.has(id)) return void res.writeHead(204).end();
      firstAttempts.add(id);
      failures += 1;
      // The first event fails with a 500, the second with a 429; each must arrive on a later attempt.
      if (failures === 1) return void res.writeHead(500).end('boom');
      if (failures === 2) return void res.writeHead(429, { 'retry-after': '1' }).end();
      res.writeHead(204).end();
    });
    const legacy = await webhook((_request, res) => void res.writeHead(410).end());
    const config = await writeConfig([
      {
        id: 'automation',
        type: 'webhook',
        url: automation.url,
        secret: [{ env: 'HOOK_SECRET_NEW' }, { env: 'HOOK_SECRET_OLD' }],
        filter: { types: ['order.created', 'order.canceled'] },
      },
      { id: 'legacy', type: 'webhook', url: legacy.url, secret: { env: 'HOOK_SECRET_NEW' } },
      {
        id: 'kitchen-a',
        type: 'slack',
        webhookUrl: { env: 'SLACK_A' },
        filter: { establishments: [establishments[0].uuid] },
      },
      {
        id: 'kitchen-b',
        type: 'slack',
        webhookUrl: { env: 'SLACK_B' },
        filter: { establishments: [establishments[1].uuid] },
      },
      { id: 'office', type: 'email', to: ['office@example.org'], filter: { types: ['order.canceled'] } },
    ]);

    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);
    const today = sim.world.today();
    const newA = sim.world.addOrder({ pickupDate: today, establishment: establishments[0].uuid });
    const newB = sim.world.addOrder({ pickupDate: today, establishment: establishments[1].uuid });
    const [pendingA] = sim.world.listOrders(
      (o) =>
        o.status.value === 'pending' &&
        o.pickup_at >= today &&
        o.establishment.uuid === establishments[0].uuid &&
        o.uuid !== newA.uuid,
    );
    if (!pendingA) throw new Error('fixture has no pending order at the first establishment');
    sim.world.setStatus(pendingA.uuid, 'canceled');

    const run = await runCli(['poll', '--config', config, '--once', '--events', '-'], env());
    expect(run.code).toBe(0);
    const events = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; type: string; subject: string });
    expect(events.map((event) => `${event.type} ${event.subject}`).sort()).toEqual(
      [`order.created ${newA.uuid}`, `order.created ${newB.uuid}`, `order.canceled ${pendingA.uuid}`].sort(),
    );
    const idOf = (type: string, subject: string) =>
      events.find((e) => e.type === type && e.subject === subject)?.id;
    const created = [idOf('order.created', newA.uuid), idOf('order.created', newB.uuid)];
    const canceled = idOf('order.canceled', pendingA.uuid);

    // automation: created + canceled, each delivered once after its first attempt failed (500, then 429).
    const automationIds = webhookIds(automation);
    expect(new Set(automationIds)).toEqual(new Set([...created, canceled]));
    expect(automationIds).toHaveLength(5);
    expect(run.stderr).toMatch(
      /^retrying +\w+ +\S+ +to automation {2}attempt 1 failed, next in \d+ s: .*answered 500/m,
    );
    expect(run.stderr).toMatch(
      /^retrying +\w+ +\S+ +to automation {2}attempt 1 failed, next in \d+ s: .*answered 429/m,
    );

    // legacy: one attempt, a 410, then nothing more.
    expect(legacy.received).toHaveLength(1);
    expect(run.stderr).toMatch(/^failed +\w+ +\S+ +to legacy {2}subscriber disabled/m);

    // kitchens: each establishment's channel gets exactly its own orders' events.
    const slackBy = (name: string) =>
      slack.received
        .filter((m) => slack.webhookUrl(name).endsWith(m.path))
        .map((m) => JSON.stringify(m.payload));
    expect(slackBy('a')).toHaveLength(2);
    expect(slackBy('a').some((text) => text.includes(newA.reference))).toBe(true);
    expect(slackBy('a').some((text) => text.includes(pendingA.reference))).toBe(true);
    expect(slackBy('b')).toHaveLength(1);
    expect(slackBy('b')[0]).toContain(newB.reference);

    // office: only the cancellation, by e-mail.
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.headers.get('subject')).toContain(`Order ${pendingA.reference} canceled`);

    const failed = await runCli(['deliveries', '--config', config, '--failed', '--json'], env());
    const dead = JSON.parse(failed.stdout) as Array<{ subscriberId: string }>;
    expect(dead.map((row) => row.subscriberId)).toEqual(['legacy', 'legacy', 'legacy']);
    const queued = await runCli(['deliveries', '--config', config], env());
    expect(queued.stdout).toContain('0 queued, 3 dead');
    expect(queued.stdout).toContain('subscriber legacy is disabled');
  }, 60_000);

  it('shows the same notes in Slack, e-mail and the webhook, the allergy flagged, on a new order and its update', async () => {
    const automation = await webhook();
    const config = await writeConfig([
      { id: 'automation', type: 'webhook', url: automation.url, secret: { env: 'HOOK_SECRET_NEW' } },
      { id: 'kitchen-a', type: 'slack', webhookUrl: { env: 'SLACK_A' } },
      { id: 'office', type: 'email', to: ['office@example.org'] },
    ]);
    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);
    const order = sim.world.addOrder({
      pickupDate: sim.world.today(),
      establishment: establishments[0].uuid,
      notes: 'Allergic to peanuts <b>no nuts</b> & no sesame',
    });
    const [line] = order.items;
    if (!line) throw new Error('an order without items');
    sim.world.setItemNotes(order.uuid, line.uuid, 'Cut in small pieces');
    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);
    sim.world.setNotes(order.uuid, 'Coeliac: gluten-free bread only');
    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);

    const hooks = automation.received.map((request) => JSON.parse(request.body) as OrderEvent);
    expect(hooks.map((event) => event.type)).toEqual(['order.created', 'order.updated']);
    expect(hooks[0]?.data.order).toMatchObject({
      notes: 'Allergic to peanuts <b>no nuts</b> & no sesame',
      items: [{ notes: 'Cut in small pieces' }],
    });
    expect(hooks[1]?.data.changes).toEqual([
      {
        field: 'notes',
        from: 'Allergic to peanuts <b>no nuts</b> & no sesame',
        to: 'Coeliac: gluten-free bread only',
      },
    ]);

    // Slack: the notes before the items, the allergy marked, its markup shown rather than obeyed.
    const [created, updated] = slack.received.map((message) => JSON.stringify(message.payload));
    expect(created).toContain('🚨');
    expect(created).toContain('Allergic to peanuts &lt;b&gt;no nuts&lt;/b&gt; &amp; no sesame');
    expect(created).toContain('Cut in small pieces');
    expect(created?.indexOf('Allergic to peanuts')).toBeLessThan(created?.indexOf('*Items') ?? -1);
    expect(updated).toContain('Coeliac: gluten-free bread only');

    // E-mail: the same notes, the allergy marked in the text and in the HTML, escaped there.
    const [createdMail, updatedMail] = smtp.received;
    expect(createdMail?.text).toContain(
      '[ALLERGY/DIET] Order: Allergic to peanuts <b>no nuts</b> & no sesame',
    );
    expect(createdMail?.text).toContain('Cut in small pieces');
    expect(createdMail?.html).toContain('Allergic to peanuts &lt;b&gt;no nuts&lt;/b&gt; &amp; no sesame');
    expect(createdMail?.html).not.toContain('<b>no nuts</b>');
    expect(updatedMail?.text).toContain('Coeliac: gluten-free bread only');
  }, 60_000);

  it('loses nothing when the runner restarts between a failed attempt and its retry', async () => {
    let healthy = false;
    const automation = await webhook((_request, res) => void res.writeHead(healthy ? 204 : 503).end());
    const config = await writeConfig([
      { id: 'automation', type: 'webhook', url: automation.url, secret: { env: 'HOOK_SECRET_NEW' } },
    ]);
    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);
    const order = sim.world.addOrder({ pickupDate: sim.world.today() });

    const runner: RunningCli = startCli(['poll', '--config', config], env());
    await runner.waitForStderr(/retrying {3}created +\S+ +to automation {2}attempt 1 failed/);
    expect(await runner.stop('SIGTERM')).toBe(0);
    expect(automation.received).toHaveLength(1);
    const firstId = automation.received[0]?.headers['webhook-id'];

    healthy = true;
    const restarted = await runCli(['poll', '--config', config, '--once'], env());
    expect(restarted.code).toBe(0);
    expect(restarted.stderr).toMatch(new RegExp(`delivered  created +${order.reference} +to automation  `));
    expect(automation.received).toHaveLength(2);
    expect(automation.received[1]?.headers['webhook-id']).toBe(firstId);
  }, 60_000);

  it('replays a subscriber’s events under their original ids', async () => {
    const automation = await webhook();
    const config = await writeConfig([
      { id: 'automation', type: 'webhook', url: automation.url, secret: { env: 'HOOK_SECRET_NEW' } },
    ]);
    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);
    sim.world.addOrder({ pickupDate: sim.world.today() });
    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);
    expect(automation.received).toHaveLength(1);

    const replay = await runCli(
      ['replay', '--config', config, '--subscriber', 'automation', '--since', '1h'],
      env(),
    );
    expect(replay.code).toBe(0);
    expect(replay.stderr).toContain('replaying 1 event to automation');
    expect(automation.received.map((request) => request.headers['webhook-id'])).toEqual([
      automation.received[0]?.headers['webhook-id'],
      automation.received[0]?.headers['webhook-id'],
    ]);

    const unknown = await runCli(
      ['replay', '--config', config, '--subscriber', 'nobody', '--since', '1h'],
      env(),
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('meal-notifier: no subscriber "nobody" in the config (known: automation)\n');
  }, 60_000);
});
