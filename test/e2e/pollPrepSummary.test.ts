// Issue 13's promises for kitchens, run as a user runs them: `meal-notifier poll` as a real process
// against the simulator, delivering to a Slack-like endpoint, an SMTP server and a webhook. The first
// establishment closes ~15 s after the start: its prep summary arrives within 60 s of closing with the
// world's pending quantities, a runner stopped at closing and started again sends it exactly once, and
// afterwards a cancellation arrives flagged after closing and a moved pickup date as `order.rescheduled`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Establishment, Order } from '../../shared/api/schemas.js';
import { AFTER_CLOSING } from '../../shared/delivery/slack/slackMessage.js';
import { addDays, calendarDateIn } from '../../shared/time/calendarDate.js';
import { isoWeekday, zonedInstant, zoneOffsetMinutes } from '../../shared/time/zonedTime.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type RunningCli, startCli } from '../support/runCli.js';
import { type SlackReceiver, startSlackReceiver } from '../support/slackReceiver.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtpReceiver.js';
import {
  makeWebhookSecret,
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhookReceiver.js';

const CLOSES_IN_MS = 15_000;
const secret = makeWebhookSecret();

interface Arrived {
  at: number;
  event: { id: string; type: string; subject: string; data: Record<string, unknown> };
}

let sim: RunningSimulator;
let slack: SlackReceiver;
let smtp: SmtpReceiver;
let hook: WebhookReceiver;
let dir: string;
let config: string;
let canteen: Establishment;
let pickupDate: string;
let closesAt: number;
const arrived: Arrived[] = [];
/** The references of the order canceled after closing, then of the one moved away. */
const atClosingRefs: string[] = [];
let summaryArrived: (arrival: Arrived) => void;
const firstSummary = new Promise<Arrived>((resolve) => {
  summaryArrived = resolve;
});

/**
 * A zone where the closing falls well inside one day wherever the machine runs: a closing past midnight
 * would belong to the next day, which is not what this file is about.
 */
function zoneAwayFromMidnight(at: number): string {
  for (const zone of ['Europe/Lisbon', 'Asia/Tokyo', 'America/Los_Angeles']) {
    const hour = new Date(at + zoneOffsetMinutes(zone, at) * 60_000).getUTCHours();
    if (hour >= 2 && hour < 21) return zone;
  }
  throw new Error('one of three zones 8 hours apart is always between 02:00 and 21:00');
}

beforeAll(async () => {
  const closing = Math.ceil((Date.now() + CLOSES_IN_MS) / 1000) * 1000;
  const timeZone = zoneAwayFromMidnight(closing);
  sim = await startSimulator({
    seed: 13,
    scenario: false,
    initialOrders: 20,
    timeZone,
    requestsPerMinute: 600,
  });
  [slack, smtp, hook] = await Promise.all([
    startSlackReceiver(),
    startSmtpReceiver(),
    startWebhookReceiver({
      secrets: [secret],
      respond: (request: ReceivedWebhook, res) => {
        const arrival: Arrived = { at: Date.now(), event: JSON.parse(request.body) as Arrived['event'] };
        arrived.push(arrival);
        if (arrival.event.type === 'establishment.prep_summary') summaryArrived(arrival);
        res.writeHead(204).end();
      },
    }),
  ]);
  const [first] = sim.world.establishments();
  if (!first) throw new Error('the simulator has an establishment');
  canteen = first;
  pickupDate = calendarDateIn(timeZone, closing);
  const local = new Date(closing + zoneOffsetMinutes(timeZone, closing) * 60_000);
  const closingTime = local.toISOString().slice(11, 19);
  sim.world.setOrderClosingTime(canteen.uuid, closingTime);
  sim.world.setWorkingDays(canteen.uuid, [isoWeekday(pickupDate)]);
  closesAt = zonedInstant(pickupDate, closingTime, timeZone);
  // Enough of the day's orders at the canteen for a cancellation, a reschedule and a summary left over.
  for (let i = 0; i < 4; i += 1) sim.world.addOrder({ pickupDate, establishment: canteen.uuid });

  dir = await mkdtemp(join(tmpdir(), 'poll-prep-summary-'));
  config = await writeNorthSchoolConfig(dir, sim, {
    api: { requestsPerMinute: 600 },
    organization: { window: { daysBack: 0, daysAhead: 1 }, pollIntervalSeconds: 2 },
    subscribers: [
      {
        id: 'kitchen',
        type: 'slack',
        webhookUrl: { env: 'SLACK_URL' },
        filter: { establishments: [canteen.uuid] },
      },
      {
        id: 'office',
        type: 'email',
        to: ['office@example.org'],
        filter: { types: ['establishment.prep_summary', 'order.canceled'] },
      },
      { id: 'automation', type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
    ],
    smtp: true,
    state: 'state.db',
  });
});

afterAll(async () => {
  await Promise.all([slack?.close(), smtp?.close(), hook?.close(), sim?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const env = () => ({
  NORTH_TOKEN: sim.token,
  SLACK_URL: slack.webhookUrl('kitchen'),
  SMTP_URL: smtp.url,
  HOOK_SECRET: secret,
});

/** Units per sku and name, as a kitchen would count them. */
function quantities(
  items: ReadonlyArray<{ sku: string; name: string; quantity: number }>,
): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const { sku, name, quantity } of items) {
    const key = `${sku} ${name}`;
    totals[key] = (totals[key] ?? 0) + quantity;
  }
  return Object.fromEntries(Object.entries(totals).filter(([, quantity]) => quantity > 0));
}

const pendingAtCanteen = (order: Readonly<Order>) =>
  order.status.value === 'pending' &&
  order.pickup_at === pickupDate &&
  order.establishment.uuid === canteen.uuid;

describe('meal-notifier poll at an establishment’s closing time', () => {
  it('sends one prep summary within 60 s of closing across a restart, then flags later changes', async () => {
    let runner: RunningCli = startCli(['poll', '--config', config], env());
    try {
      // Stopped in the cycle that records the summary, right at closing: delivered or not by then, the
      // second runner must not send it again.
      await runner.waitForStderr(/^detected +prep_summary +/m);
      expect(await runner.stop('SIGTERM')).toBe(0);
      const atClosing = sim.world.listOrders(pendingAtCanteen);
      runner = startCli(['poll', '--config', config], env());

      const summary = await firstSummary;
      expect(summary.at - closesAt).toBeLessThanOrEqual(60_000);
      expect(summary.event.data).toMatchObject({
        establishment: { uuid: canteen.uuid, name: canteen.name },
        pickup_date: pickupDate,
        orders: atClosing.length,
        complete: true,
      });
      expect(quantities(summary.event.data.items as never)).toEqual(
        quantities(atClosing.flatMap((order) => order.items)),
      );

      const [late, moved] = atClosing;
      if (!late || !moved) throw new Error('the canteen has two pending orders for the day');
      atClosingRefs.push(late.reference, moved.reference);
      sim.world.setStatus(late.uuid, 'canceled');
      sim.world.setPickupDate(moved.uuid, addDays(pickupDate, 1));
      for (const [type, reference, subscribers] of [
        ['canceled', late.reference, ['kitchen', 'office', 'automation']],
        ['rescheduled', moved.reference, ['kitchen', 'automation']],
      ] as const) {
        for (const subscriber of subscribers) {
          await runner.waitForStderr(
            new RegExp(`^delivered +${type} +${reference} .* to ${subscriber} `, 'm'),
          );
        }
      }
      // The kitchen's new totals, gathered from both changes in one cycle.
      await runner.waitForStderr(/^delivered +prep_changed +.* to kitchen /m);
      expect(await runner.stop('SIGTERM')).toBe(0);
    } finally {
      await runner.stop('SIGKILL');
    }

    // Exactly one summary, under one id, in each channel.
    const summaries = arrived.filter((arrival) => arrival.event.type === 'establishment.prep_summary');
    expect(summaries.map((arrival) => arrival.event.subject)).toEqual([canteen.uuid]);
    const slackTexts = slack.received.map((message) => JSON.stringify(message.payload));
    expect(slackTexts.filter((text) => text.includes('🍽'))).toHaveLength(1);
    const mails = smtp.received.map((mail) => mail.headers.get('subject') ?? '');
    expect(mails.filter((subject) => !/canceled/i.test(subject))).toHaveLength(1);

    // The late cancellation: flagged in the contract and loud in Slack.
    const canceled = arrived.find((arrival) => arrival.event.type === 'order.canceled');
    expect(canceled?.event.data.after_closing).toBe(true);
    const canceledSlack = slackTexts.find((text) => text.includes('❌ Canceled'));
    expect(canceledSlack).toContain(AFTER_CLOSING);

    // Said once: the cancellation in its own message; the changes since the summary give the new totals
    // and name the order, without telling the kitchen again that it was canceled.
    const [late] = atClosingRefs;
    if (late === undefined) throw new Error('an order was canceled after closing');
    const sinceSummary = slackTexts.filter((text) => text.includes('changes since the'));
    expect(sinceSummary).toHaveLength(1);
    expect(sinceSummary[0]).toContain(late);
    const saysCanceled = new RegExp(`Canceled ${late}|${late}: canceled`);
    expect(slackTexts.filter((text) => saysCanceled.test(text))).toHaveLength(1);

    // The moved pickup date: a reschedule, saying from what day to what day.
    const rescheduled = arrived.filter((arrival) => arrival.event.type === 'order.rescheduled');
    expect(rescheduled).toHaveLength(1);
    expect(rescheduled[0]?.event.data.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'pickup_date', from: pickupDate, to: addDays(pickupDate, 1) }),
      ]),
    );
    expect(slackTexts.some((text) => text.includes('📅 Rescheduled'))).toBe(true);
    // No status change came with it.
    expect(arrived.filter((arrival) => arrival.event.type === 'order.status_changed')).toEqual([]);
  }, 120_000);
});
