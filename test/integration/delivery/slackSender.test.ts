import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryOutcome } from '../../../shared/delivery/deliveryOutcome.js';
import { SlackWebhookUrlError } from '../../../shared/delivery/errors.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import { SlackPacer } from '../../../shared/delivery/slack/slackPacer.js';
import { SlackSender, type SlackSenderOptions } from '../../../shared/delivery/slack/slackSender.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { USER_AGENT } from '../../../shared/version.js';
import { type FakeTime, fakeTime } from '../../support/apiClientHarness.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { closedPort } from '../../support/loopbackServer.js';
import {
  SLACK_ANSWERS,
  type SlackReceiver,
  type SlackScript,
  startSlackReceiver,
} from '../../support/slackReceiver.js';

let receiver: SlackReceiver;
let time: FakeTime;
let pacer: SlackPacer;
const senders: SlackSender[] = [];

beforeEach(async () => {
  receiver = await startSlackReceiver();
  time = fakeTime();
  pacer = new SlackPacer();
});

afterEach(async () => {
  await Promise.all(senders.splice(0).map((sender) => sender.close()));
  await receiver.close();
});

function slackSender(overrides: Partial<SlackSenderOptions> = {}): SlackSender {
  const sender = new SlackSender({
    subscriberId: 'kitchen-main',
    webhookUrl: receiver.webhookUrl(),
    includeContactDetails: false,
    clock: time.clock,
    sleep: time.sleep,
    pacer,
    ...overrides,
  });
  senders.push(sender);
  return sender;
}

/** Sends one event after scripting Slack's answer to it. */
async function sendAnswered(answer: SlackScript, overrides: Partial<SlackSenderOptions> = {}) {
  receiver.script(answer);
  return slackSender(overrides).send(makeOrderEvent({ type: 'order.canceled' }));
}

describe('SlackSender delivery', () => {
  it('posts the formatted Block Kit message as JSON and reports 200 ok as delivered', async () => {
    const event = makeOrderEvent({ type: 'order.canceled', order: { reference: 'R-1042' } });
    const outcome = await slackSender().send(event);
    expect(outcome).toEqual({ kind: 'delivered', status: 200 });
    expect(receiver.received).toHaveLength(1);
    const [message] = receiver.received;
    expect(message?.path).toBe(new URL(receiver.webhookUrl()).pathname);
    expect(message?.headers['content-type']).toMatch(/^application\/json/);
    expect(message?.headers['user-agent']).toBe(USER_AGENT);
    expect(message?.payload).toEqual(formatSlackMessage(eventForSubscriber(event, false)));
    expect(JSON.stringify(message?.payload)).toContain('❌ Canceled R-1042');
  });

  it('leaves parent e-mail and phone out of what it posts, whether or not the subscriber opted in', async () => {
    const event = makeOrderEvent();
    await slackSender({ includeContactDetails: false }).send(event);
    await slackSender({ includeContactDetails: true, webhookUrl: receiver.webhookUrl('other') }).send(event);
    expect(receiver.received).toHaveLength(2);
    for (const { payload } of receiver.received) {
      expect(JSON.stringify(payload)).not.toContain('parent@example.test');
      expect(JSON.stringify(payload)).not.toContain('+351');
    }
  });
});

describe('SlackSender classification', () => {
  it('retries a 429 after the Retry-After Slack gave', async () => {
    const outcome = await sendAnswered(SLACK_ANSWERS.rateLimited(7));
    expect(outcome).toMatchObject({ kind: 'retry', status: 429, retryAfterMs: 7_000 });
  });

  it('retries a 500 rollup_error', async () => {
    const outcome = await sendAnswered(SLACK_ANSWERS.serverError);
    expect(outcome).toMatchObject({ kind: 'retry', status: 500 });
    expect(outcome).toHaveProperty('reason', expect.stringContaining('rollup_error'));
  });

  it.each([
    ['400 invalid_payload', SLACK_ANSWERS.invalidPayload, 'invalid_payload'],
    ['400 invalid_blocks', SLACK_ANSWERS.invalidBlocks, 'invalid_blocks'],
    ['an unknown 400', { status: 400, body: 'something_new' }, 'something_new'],
    ['a 413 without an error string', { status: 413, body: '' }, '413'],
  ])('dead-letters %s without retrying', async (_name, answer, inReason) => {
    const outcome = await sendAnswered(answer);
    expect(outcome.kind).toBe('dead');
    expect(outcome).toHaveProperty('reason', expect.stringContaining(inReason));
    expect(receiver.received).toHaveLength(1);
  });

  it.each([
    ['404 no_service', SLACK_ANSWERS.noService, 404, 'no_service'],
    ['410 channel_is_archived', SLACK_ANSWERS.channelIsArchived, 410, 'channel_is_archived'],
    ['403 action_prohibited', SLACK_ANSWERS.actionProhibited, 403, 'action_prohibited'],
    ['a bare 404', { status: 404, body: 'Not Found' }, 404, '404'],
    ['a bare 410', { status: 410, body: '' }, 410, '410'],
  ])('reports %s as gone, so the subscriber is disabled', async (_name, answer, status, inReason) => {
    const outcome = await sendAnswered(answer);
    expect(outcome).toMatchObject({ kind: 'gone', status });
    expect(outcome).toHaveProperty('reason', expect.stringContaining(inReason));
    expect(receiver.received).toHaveLength(1);
  });

  it('retries when Slack does not answer within the timeout', async () => {
    const outcome = await sendAnswered('hang', { timeoutMs: 200 });
    expect(outcome).toEqual({ kind: 'retry', reason: 'Slack did not answer within 0.2 s' });
  });

  it('retries when Slack cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/services/T0/B0/sEcReT-closed`;
    const outcome = await slackSender({ webhookUrl: url }).send(makeOrderEvent());
    expect(outcome).toEqual({
      kind: 'retry',
      reason: 'could not reach Slack (connection refused: nothing listens at that address and port)',
    });
  });

  it('refuses to be built with a webhook URL that is not an http(s) URL, without quoting it', () => {
    expect(() => slackSender({ webhookUrl: 'hooks.slack.com/services/T0/B0/sEcReT' })).toThrow(
      new SlackWebhookUrlError('kitchen-main'),
    );
    try {
      slackSender({ webhookUrl: 'hooks.slack.com/services/T0/B0/sEcReT' });
    } catch (error) {
      expect(String(error)).not.toContain('sEcReT');
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses plain http:// beyond loopback, by the rule webhook subscribers follow, without quoting it', () => {
    const build = () => slackSender({ webhookUrl: 'http://hooks.slack.com/services/T0/B0/sEcReT' });
    expect(build).toThrow(new SlackWebhookUrlError('kitchen-main'));
    expect(build).toThrow(/an https:\/\/ URL, or http:\/\/ on loopback \(127\.0\.0\.0\/8, ::1, localhost\)$/);
    expect(build).not.toThrow(/sEcReT/);
  });
});

describe('SlackSender keeps the webhook URL secret', () => {
  it('never puts the URL or its token in a reason, whatever Slack answers', async () => {
    const url = receiver.webhookUrl();
    const path = new URL(url).pathname;
    const echoes = { status: 400, body: `<html>bad request to ${url} (${path})</html>` };
    const answers: SlackScript[] = [
      SLACK_ANSWERS.rateLimited(1),
      SLACK_ANSWERS.serverError,
      SLACK_ANSWERS.invalidPayload,
      SLACK_ANSWERS.noService,
      SLACK_ANSWERS.channelIsArchived,
      SLACK_ANSWERS.actionProhibited,
      echoes,
      { status: 502, body: url },
      { status: 302, body: url, headers: { location: url } },
      'hang',
    ];
    const outcomes: DeliveryOutcome[] = [];
    for (const answer of answers) outcomes.push(await sendAnswered(answer, { timeoutMs: 200 }));
    const refused = `http://127.0.0.1:${await closedPort()}/services/T0/B0/sEcReT-closed`;
    outcomes.push(await slackSender({ webhookUrl: refused }).send(makeOrderEvent()));

    expect(outcomes.map((outcome) => outcome.kind)).toEqual([
      'retry',
      'retry',
      'dead',
      'gone',
      'gone',
      'gone',
      'dead',
      'retry',
      'dead',
      'retry',
      'retry',
    ]);
    for (const outcome of outcomes) {
      const reason = 'reason' in outcome ? outcome.reason : '';
      expect(reason).not.toContain('sEcReT');
      expect(reason).not.toContain('/services/');
      expect(reason).not.toMatch(/\n/);
    }
  });
});

describe('SlackSender pacing', () => {
  it('spaces two messages to the same webhook at least 1 s apart', async () => {
    const sender = slackSender();
    await sender.send(makeOrderEvent());
    await sender.send(makeOrderEvent());
    expect(time.sleeps).toEqual([1_000]);
    expect(receiver.received).toHaveLength(2);
  });

  it('waits only for what is left of the second when time has passed', async () => {
    const sender = slackSender();
    await sender.send(makeOrderEvent());
    time.advance(400);
    await sender.send(makeOrderEvent());
    time.advance(1_500);
    await sender.send(makeOrderEvent());
    expect(time.sleeps).toEqual([600]);
  });

  it('paces different subscribers that share one webhook URL against each other', async () => {
    await slackSender({ subscriberId: 'kitchen-a' }).send(makeOrderEvent());
    await slackSender({ subscriberId: 'kitchen-b' }).send(makeOrderEvent());
    expect(time.sleeps).toEqual([1_000]);
  });

  it('gives messages sent at the same moment consecutive slots', async () => {
    // A clock that stands still while they wait: all three ask for a slot at the same instant.
    const sleeps: number[] = [];
    const sender = slackSender({
      clock: () => 1_000_000,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    const outcomes = await Promise.all([1, 2, 3].map(() => sender.send(makeOrderEvent())));
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(sleeps).toEqual([1_000, 2_000]);
  });

  it('does not pace different webhook URLs against each other', async () => {
    await slackSender({ webhookUrl: receiver.webhookUrl('a') }).send(makeOrderEvent());
    await slackSender({ webhookUrl: receiver.webhookUrl('b') }).send(makeOrderEvent());
    await slackSender({ webhookUrl: receiver.webhookUrl('c') }).send(makeOrderEvent());
    expect(time.sleeps).toEqual([]);
    expect(receiver.received.map((message) => message.path)).toHaveLength(3);
  });

  it('makes every sender of a URL wait out the Retry-After of a 429', async () => {
    receiver.script(SLACK_ANSWERS.rateLimited(5));
    expect((await slackSender({ subscriberId: 'kitchen-a' }).send(makeOrderEvent())).kind).toBe('retry');
    expect(await slackSender({ subscriberId: 'kitchen-b' }).send(makeOrderEvent())).toEqual({
      kind: 'delivered',
      status: 200,
    });
    expect(time.sleeps).toEqual([5_000]);
  });

  it('hands an event back instead of waiting longer than maxPaceWaitMs', async () => {
    receiver.script(SLACK_ANSWERS.rateLimited(60));
    const sender = slackSender({ maxPaceWaitMs: 10_000 });
    await sender.send(makeOrderEvent());
    time.advance(15_000);
    const outcome = await sender.send(makeOrderEvent());
    expect(outcome).toMatchObject({ kind: 'retry', retryAfterMs: 45_000 });
    expect(outcome).not.toHaveProperty('status');
    expect(receiver.received).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });
});
