// One delivery conformance suite, run against both runtimes' paths (the local engine over the SQLite
// outbox, and the SQS handler over simulated queues with DynamoDB Local), with real loopback receivers:
// the same answer from a receiver, or the same fault, ends in the same place on both.
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SubscriberConfig } from '../../../shared/config/configSchema.js';
import type { EventSender } from '../../../shared/delivery/deliveryOutcome.js';
import {
  awsPath,
  type DeliveryPath,
  localPath,
  type PathRun,
  type PathSetup,
} from '../../support/deliveryPaths.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { SLACK_ANSWERS, type SlackReceiver, startSlackReceiver } from '../../support/slackReceiver.js';
import {
  makeWebhookSecret,
  type Responder,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhookReceiver.js';

const SECRET = makeWebhookSecret();
const NEXT_SECRET = makeWebhookSecret();

let receivers: WebhookReceiver[];
let slack: SlackReceiver;
let run: PathRun | undefined;
let held: ServerResponse[];

beforeEach(async () => {
  receivers = [];
  held = [];
  slack = await startSlackReceiver();
});

afterEach(async () => {
  for (const res of held) res.destroy();
  await run?.close();
  run = undefined;
  await Promise.all([...receivers.map((receiver) => receiver.close()), slack.close()]);
});

async function receiver(respond?: Responder): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver({
    secrets: [SECRET, NEXT_SECRET],
    ...(respond ? { respond } : {}),
  });
  receivers.push(started);
  return started;
}

function webhook(id: string, target: WebhookReceiver, secret: unknown = { env: 'SECRET' }): SubscriberConfig {
  return {
    id,
    type: 'webhook',
    url: target.url,
    secret: Array.isArray(secret) ? secret : [secret],
    includeContactDetails: false,
    enabled: true,
    filter: {},
  } as SubscriberConfig;
}

function slackSubscriber(id: string): SubscriberConfig {
  return {
    id,
    type: 'slack',
    webhookUrl: { env: 'SLACK_URL' },
    includeContactDetails: false,
    enabled: true,
    filter: {},
  } as SubscriberConfig;
}

const SECRETS = { SECRET, NEXT: NEXT_SECRET, SLACK_URL: '' };

/** Answers from a list, one per request; once used up, 204. */
function answers(...list: Array<[number, Record<string, string>?] | 'hang'>): Responder {
  return (_request, res, hit) => {
    const answer = list[hit - 1] ?? [204];
    if (answer === 'hang') return void held.push(res);
    res.writeHead(answer[0], answer[1] ?? {}).end();
  };
}

describe.each<DeliveryPath>([localPath, awsPath])('delivery conformance: $name', (path) => {
  async function start(setup: Partial<PathSetup> & { subscribers: SubscriberConfig[] }): Promise<PathRun> {
    run = await path.start({ secrets: { ...SECRETS, SLACK_URL: slack.webhookUrl('kitchen') }, ...setup });
    return run;
  }

  it('delivers on a 2xx, signed, once', async () => {
    const target = await receiver();
    const run = await start({ subscribers: [webhook('hook', target)] });
    const event = makeOrderEvent();
    await run.publish(event);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toEqual({ state: 'delivered' });
    expect(target.received.map((r) => [r.headers['webhook-id'], r.verifiedBy[0]])).toEqual([
      [event.id, true],
    ]);
  });

  it('retries a 500 on the schedule and delivers it under the same id', async () => {
    const target = await receiver(answers([500]));
    const run = await start({ subscribers: [webhook('hook', target)] });
    const event = makeOrderEvent();
    await run.publish(event);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toMatchObject({ state: 'queued' });
    run.advance(4_999);
    await run.deliverDue();
    expect(target.received).toHaveLength(1);
    run.advance(1);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toEqual({ state: 'delivered' });
    expect(target.received.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
  });

  it('waits as long as a 429’s Retry-After asks', async () => {
    const target = await receiver(answers([429, { 'retry-after': '120' }]));
    const run = await start({ subscribers: [webhook('hook', target)] });
    const event = makeOrderEvent();
    await run.publish(event);
    await run.deliverDue();
    run.advance(119_000);
    await run.deliverDue();
    expect(target.received).toHaveLength(1);
    run.advance(1_000);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toEqual({ state: 'delivered' });
  });

  it('retries an attempt that times out', async () => {
    const target = await receiver(answers('hang'));
    const run = await start({ subscribers: [webhook('hook', target)], timeoutMs: 200 });
    const event = makeOrderEvent();
    await run.publish(event);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toMatchObject({ state: 'queued' });
    run.advance(5_000);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toEqual({ state: 'delivered' });
  });

  it('disables a subscriber on 410, and sends it nothing more', async () => {
    const target = await receiver(answers([410]));
    const run = await start({ subscribers: [webhook('hook', target)] });
    const [first, second] = [makeOrderEvent(), makeOrderEvent()];
    await run.publish(first);
    await run.deliverDue();
    await run.publish(second);
    await run.deliverDue();
    expect(await run.state('hook', first.id)).toMatchObject({ state: 'subscriber_disabled' });
    expect(await run.state('hook', second.id)).toMatchObject({ state: 'subscriber_disabled' });
    expect(target.received).toHaveLength(1);
  });

  it('dead-letters a permanent Slack error at once, and disables on an archived channel', async () => {
    slack.script(SLACK_ANSWERS.invalidPayload, SLACK_ANSWERS.channelIsArchived);
    const run = await start({ subscribers: [slackSubscriber('kitchen')] });
    const [first, second] = [makeOrderEvent(), makeOrderEvent()];
    await run.publish(first);
    await run.deliverDue();
    expect(await run.state('kitchen', first.id)).toMatchObject({
      state: 'dead',
      reason: expect.stringMatching(/invalid_payload/),
    });
    await run.publish(second);
    await run.deliverDue();
    expect(await run.state('kitchen', second.id)).toMatchObject({ state: 'subscriber_disabled' });
    expect(slack.received).toHaveLength(2);
  });

  it('retries, with the error recorded, a sender that throws, and sends a healthy subscriber each event once', async () => {
    const healthy = await receiver();
    const broken = await receiver();
    const wrapSender = (id: string, sender: EventSender): EventSender =>
      id === 'broken' ? { send: async () => Promise.reject(new TypeError('boom in the sender')) } : sender;
    const run = await start({
      subscribers: [webhook('broken', broken), webhook('healthy', healthy)],
      wrapSender,
    });
    const events = [makeOrderEvent(), makeOrderEvent(), makeOrderEvent()];
    for (const event of events) await run.publish(event);
    await run.deliverDue();
    await run.deliverDue();
    for (const event of events) {
      expect(await run.state('broken', event.id)).toMatchObject({ state: 'queued' });
      expect(await run.state('healthy', event.id)).toEqual({ state: 'delivered' });
    }
    if (path === localPath) {
      expect(await run.state('broken', events[0]?.id ?? '')).toMatchObject({
        reason: 'the sender failed unexpectedly: boom in the sender',
      });
    }
    expect(healthy.received.map((r) => r.headers['webhook-id'])).toEqual(events.map((event) => event.id));
    expect(broken.received).toHaveLength(0);
  });

  it('loses nothing when recording a dead letter fails: it is recorded on the next try', async () => {
    const target = await receiver(answers([400], [400]));
    const run = await start({ subscribers: [webhook('hook', target)], failingDeadLetterWrites: 1 });
    const event = makeOrderEvent();
    await run.publish(event);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toMatchObject({ state: 'queued' });
    run.advance(6 * 60_000);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toMatchObject({
      state: 'dead',
      reason: expect.stringMatching(/400/),
    });
    // The local engine held the outcome and sent nothing again; SQS hands the message back once more.
    expect(target.received.length).toBeLessThanOrEqual(2);
    expect(new Set(target.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
  });

  it('delivers to a healthy subscriber while another’s receiver hangs, new events included', async () => {
    const stuck = await receiver(answers('hang'));
    let healthyGotTwo: () => void = () => {};
    const gotTwo = new Promise<void>((resolve) => {
      healthyGotTwo = resolve;
    });
    const healthy = await receiver((_request, res, hit) => {
      res.writeHead(204).end();
      if (hit === 2) healthyGotTwo();
    });
    const run = await start({
      subscribers: [webhook('stuck', stuck), webhook('healthy', healthy)],
      timeoutMs: 60_000,
    });
    const [first, second] = [makeOrderEvent(), makeOrderEvent()];
    await run.publish(first);
    const delivering = run.deliverDue();
    // The second event is recorded while the stuck receiver holds the first attempt.
    while (stuck.received.length === 0 || healthy.received.length === 0)
      await new Promise((r) => setImmediate(r));
    await run.publish(second);
    if (path === awsPath) void run.deliverDue();
    await gotTwo;
    expect(held).toHaveLength(1);
    expect(held[0]?.writableEnded).toBe(false);
    for (const res of held) res.writeHead(204).end();
    await delivering;
    expect(await run.state('healthy', second.id)).toEqual({ state: 'delivered' });
  });

  it('signs with the one secret set while a rotation’s other is not', async () => {
    const target = await receiver();
    const { NEXT: _unset, ...secrets } = SECRETS;
    const run = await start({
      subscribers: [webhook('hook', target, [{ env: 'NEXT' }, { env: 'SECRET' }])],
      secrets: { ...secrets, SLACK_URL: slack.webhookUrl('kitchen') },
    });
    const event = makeOrderEvent();
    await run.publish(event);
    await run.deliverDue();
    expect(await run.state('hook', event.id)).toEqual({ state: 'delivered' });
    expect(target.received.map((r) => r.verifiedBy)).toEqual([[true, false]]);
    expect(run.warnings).toEqual([
      'webhook subscriber "hook": signing secret NEXT is not set; signing with the 1 that are',
    ]);
  });
});
