// Calm after an outage (issue 22): `meal-notifier poll` as a real process, stopped for longer than its
// subscribers' catchUpAfter (15 minutes, the default) while the world moves, then started again 20 minutes
// later (the simulator and the runner on a clock shifted by test/support/shiftedClock.mjs). The Slack channel
// and the e-mail subscriber get one catch-up each instead of the backlog; the webhook gets every event; no
// event id is lost or delivered twice, which the state file's outbox shows delivery by delivery.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCatchUp } from '../../shared/events/catchUpEvent.js';
import { type OrderEvent, OrderEventSchema } from '../../shared/events/orderEvent.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import { addDays } from '../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type RunningCli, startCli } from '../support/runCli.js';
import { type SlackReceiver, startSlackReceiver } from '../support/slackReceiver.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtpReceiver.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { type LogLine, logLines, when } from './jsonLogLines.js';

const SHIFTED_CLOCK = fileURLToPath(new URL('../support/shiftedClock.mjs', import.meta.url));
const OUTAGE_MS = 20 * 60_000;

let sim: RunningSimulator;
let slack: SlackReceiver;
let smtp: SmtpReceiver;
let hook: WebhookReceiver;
let dir: string;
let config: string;
/** Added to the real clock by the simulator and the runner: the outage, once the runner is restarted. */
let offsetMs = 0;
const runners: RunningCli[] = [];
const secret = makeWebhookSecret();

beforeAll(async () => {
  sim = await startSimulator({
    seed: 22,
    scenario: false,
    initialOrders: 12,
    organizations: [{ name: 'North School', initialOrders: 12 }],
    clock: () => Date.now() + offsetMs,
  });
  slack = await startSlackReceiver();
  smtp = await startSmtpReceiver();
  hook = await startWebhookReceiver({ secrets: [secret] });
  dir = await mkdtemp(join(tmpdir(), 'poll-catch-up-'));
  config = await writeNorthSchoolConfig(dir, sim, {
    organization: { pollIntervalSeconds: 2 },
    subscribers: [
      { id: 'automation', type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
      // Order events only: a prep summary is never folded, and a closing the shifted clock crosses would
      // post one.
      {
        id: 'kitchen',
        type: 'slack',
        webhookUrl: { env: 'SLACK_URL' },
        filter: { types: ['order.created', 'order.canceled', 'order.updated'] },
      },
      {
        id: 'office',
        type: 'email',
        to: ['office@example.org'],
        filter: { types: ['order.created', 'order.canceled', 'order.updated'] },
      },
    ],
    smtp: true,
    state: 'state.db',
  });
});

afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.stop('SIGKILL')));
  await Promise.all([slack?.close(), smtp?.close(), hook?.close(), sim?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

function startRunner(): RunningCli {
  const runner = startCli(['poll', '--config', config, '--events', '-', '--log-format', 'json'], {
    NORTH_TOKEN: sim.token,
    HOOK_SECRET: secret,
    SLACK_URL: slack.webhookUrl('kitchen'),
    SMTP_URL: smtp.url,
    NODE_OPTIONS: `--import ${SHIFTED_CLOCK}`,
    MEAL_NOTIFIER_TEST_CLOCK_OFFSET_MS: String(offsetMs),
  });
  runners.push(runner);
  return runner;
}

const cycles = (stderr: string) => logLines(stderr).filter((line) => line.kind === 'cycle');
const deliveredLines = (stderr: string): LogLine[] =>
  logLines(stderr).filter((line) => line.kind === 'delivery' && line.state === 'delivered');
const deliveredTo = (stderr: string, subscriberId: string) =>
  deliveredLines(stderr).filter((line) => line.subscriberId === subscriberId);

/** The order events written, in order; a closing the run straddles (any hour of the day) adds a prep summary. */
function eventsOf(stdout: string): OrderEvent[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string })
    .filter((event) => event.type.startsWith('order.'))
    .map((event) => OrderEventSchema.parse(event));
}

const headerOf = (payload: unknown): string =>
  String((payload as { blocks?: { type: string; text?: { text: string } }[] }).blocks?.[0]?.text?.text ?? '');

describe('meal-notifier poll after an outage longer than catchUpAfter', () => {
  it('sends people one catch-up instead of the backlog, a webhook every event, and loses or repeats none', async () => {
    // Tomorrow, so that the shifted clock never moves an order out of the watched window.
    const pickupDate = addDays(sim.world.today(), 1);
    const known = Array.from({ length: 4 }, () => sim.world.addOrder({ pickupDate }));
    const first = startRunner();
    await first.waitForStderr(when('a baseline cycle', (text) => cycles(text).length >= 1));
    // Before the outage: a new order is posted as it comes.
    const before = sim.world.addOrder({ pickupDate });
    await first.waitForStderr(
      when('the order before the outage posted and e-mailed', (text) =>
        ['kitchen', 'office', 'automation'].every((id) =>
          deliveredTo(text, id).some((line) => line.reference === before.reference),
        ),
      ),
    );
    expect(await first.stop('SIGTERM')).toBe(0);
    const postsBefore = slack.received.length;
    const mailsBefore = smtp.received.length;

    // The runner is down; the world moves: new orders (one with an allergy), cancellations, a new note.
    const created = Array.from({ length: 9 }, () => sim.world.addOrder({ pickupDate }));
    sim.world.setNotes(created[0]?.uuid ?? '', 'Peanut allergy: no nuts at all');
    for (const order of known.slice(0, 3)) sim.world.setStatus(order.uuid, 'canceled');
    sim.world.setNotes(known[3]?.uuid ?? '', 'Gluten free, please');
    // Twenty minutes later the runner is started again.
    offsetMs = OUTAGE_MS;
    const second = startRunner();
    const recorded = () => eventsOf(second.output.stdout);
    const settled = await second.waitForStderr(
      when('every event sent to the webhook, and a catch-up to Slack and e-mail', (text) => {
        const ids = recorded().map((event) => event.id);
        const hooked = new Set(deliveredTo(text, 'automation').map((line) => String(line.eventId)));
        const caughtUp = (id: string) =>
          deliveredTo(text, id).some((line) => line.eventType === 'notifier.catch_up');
        return (
          ids.length >= 13 && ids.every((id) => hooked.has(id)) && caughtUp('kitchen') && caughtUp('office')
        );
      }),
    );
    expect(await second.stop('SIGTERM')).toBe(0);

    const events = recorded();
    expect(events.map((event) => event.type).sort()).toEqual([
      ...Array(3).fill('order.canceled'),
      ...Array(9).fill('order.created'),
      'order.updated',
    ]);
    // The runner logged its fold: the kitchen's stale events went into one message.
    const folds = logLines(settled).filter((line) => line.kind === 'delivery' && line.state === 'folded');
    expect(folds.map((line) => line.subscriberId).sort()).toEqual(['kitchen', 'office']);

    // Slack: one catch-up, and no stale "New order" post.
    const posts = slack.received.slice(postsBefore);
    expect(posts.length).toBeLessThanOrEqual(3);
    const catchUpPosts = posts.filter((post) => headerOf(post.payload).startsWith('⏪ Catch-up'));
    expect(catchUpPosts.map((post) => headerOf(post.payload))).toEqual([
      '⏪ Catch-up: 13 changes at North School',
    ]);
    const slackText = JSON.stringify(posts.map((post) => post.payload));
    expect(slackText).toContain('Peanut allergy: no nuts at all');
    for (const order of created)
      expect(posts.some((post) => headerOf(post.payload).includes(order.reference))).toBe(false);
    // E-mail: one catch-up.
    const mails = smtp.received.slice(mailsBefore);
    expect(mails.map((mail) => mail.headers.get('x-meal-order-event-type'))).toEqual(['notifier.catch_up']);
    expect(mails[0]?.headers.get('subject')).toMatch(/^Catch-up: 13 changes at North School, /);
    expect(mails[0]?.text).toContain('North School');

    // The webhook: every event, each once.
    const webhookIds = hook.received.map((request) => String(request.headers['webhook-id']));
    for (const event of events) expect(webhookIds.filter((id) => id === event.id)).toHaveLength(1);

    // The outbox: every event delivered to each subscriber exactly once, the people's by their catch-up.
    const store = new SqliteStateStore({ path: join(dir, 'state.db') });
    try {
      const deliveries = await store.outbox.deliveriesOf(events.map((event) => event.id));
      for (const subscriberId of ['automation', 'kitchen', 'office']) {
        const mine = deliveries.filter((delivery) => delivery.subscriberId === subscriberId);
        expect(mine.map((delivery) => delivery.eventId).sort()).toEqual(
          events.map((event) => event.id).sort(),
        );
        expect(mine.every((delivery) => delivery.status === 'delivered')).toBe(true);
      }
      for (const subscriberId of ['kitchen', 'office']) {
        const folded = deliveries.filter((delivery) => delivery.subscriberId === subscriberId);
        const catchUpId = folded[0]?.foldedInto;
        expect(catchUpId).toBeDefined();
        expect(folded.every((delivery) => delivery.foldedInto === catchUpId)).toBe(true);
        const stored = await store.getEvent(catchUpId ?? '');
        if (!stored || !isCatchUp(stored.event)) throw new Error(`no catch-up ${catchUpId} in the log`);
        const data = stored.event.data;
        expect([...data.event_ids].sort()).toEqual(events.map((event) => event.id).sort());
        expect(data).toMatchObject({ subscriber_id: subscriberId, events: 13, found_late: 13 });
        // The notes set while it was down, among the simulator's own that mention an allergen.
        expect(data.notes.map((line) => line.reference)).toEqual(
          expect.arrayContaining([created[0]?.reference, known[3]?.reference]),
        );
      }
      expect(
        deliveries.filter((delivery) => delivery.subscriberId === 'automation').every((d) => !d.foldedInto),
      ).toBe(true);
    } finally {
      store.close();
    }
  });
});
