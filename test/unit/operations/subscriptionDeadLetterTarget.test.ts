// Reading what SNS dead-lettered: an e-mail notification names its subscription (and a digest its
// subscriber), a raw delivery only its event; anything else is named as not an event, never guessed.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { readSnsDeadLetter } from '../../../shared/contracts/snsDeadLetter.js';
import { targetOf } from '../../../shared/operations/subscriptionDeadLetters.js';
import { exampleConfig, NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import { makeEvent, newOrderUuid } from '../../support/stateStoreConformance.js';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:Notifier-Events';
const SUBSCRIPTION = `${TOPIC}:6c1d-office`;
const config = parseConfig({
  ...exampleConfig(),
  subscribers: [
    ...(exampleConfig().subscribers ?? []),
    {
      id: 'office-digest',
      type: 'email',
      to: ['office@example.org'],
      digest: { every: '1h', types: ['order.created'] },
    },
  ],
});
const endpoints = new Map([[SUBSCRIPTION, { protocol: 'email', endpoint: 'Office@Example.org' }]]);

function notification(attributes: Record<string, string>): string {
  return JSON.stringify({
    Type: 'Notification',
    MessageId: 'n-1',
    TopicArn: TOPIC,
    Subject: 'Digest: 3 new orders',
    Message: 'text',
    Timestamp: '2026-11-22T08:00:00.000Z',
    UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${SUBSCRIPTION}`,
    MessageAttributes: Object.fromEntries(
      Object.entries(attributes).map(([name, value]) => [name, { Type: 'String', Value: value }]),
    ),
  });
}

describe('readSnsDeadLetter', () => {
  it('reads the subscription out of an e-mail notification', () => {
    expect(readSnsDeadLetter(notification({ type: 'order.canceled' }))).toMatchObject({
      form: 'envelope',
      subscriptionArn: SUBSCRIPTION,
      topicArn: TOPIC,
      subject: 'Digest: 3 new orders',
      attributes: { type: 'order.canceled' },
    });
  });

  it('takes an event, or anything else that is no notification, as a raw delivery', () => {
    const event = makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.created');
    expect(readSnsDeadLetter(JSON.stringify(event))).toEqual({ form: 'raw', body: JSON.stringify(event) });
    expect(readSnsDeadLetter('not json')).toEqual({ form: 'raw', body: 'not json' });
  });
});

describe('targetOf', () => {
  it("tells a digest from the same address's own e-mails by its digest attribute", () => {
    const digest = readSnsDeadLetter(notification({ type: 'digest.email', digest: 'office-digest' }));
    expect(targetOf(config, digest, { endpoints, alarmTopicArn: undefined })).toMatchObject({
      subscriberIds: ['office-digest'],
      certain: true,
      reason: expect.stringContaining('SNS could not e-mail Office@Example.org (a digest)'),
    });
    const own = readSnsDeadLetter(notification({ type: 'order.canceled' }));
    expect(targetOf(config, own, { endpoints, alarmTopicArn: undefined }).subscriberIds).toEqual([
      'office',
      'office-digest',
    ]);
  });

  it('names the subscription when SNS cannot say which address it is', () => {
    const own = readSnsDeadLetter(notification({ type: 'order.canceled' }));
    expect(targetOf(config, own, { endpoints: new Map(), alarmTopicArn: undefined })).toMatchObject({
      subscriberIds: [],
      certain: false,
      reason: expect.stringContaining(`subscription ${SUBSCRIPTION}`),
    });
  });

  it('says a raw message that is no event is none, with no subscriber to replay it to', () => {
    expect(
      targetOf(config, readSnsDeadLetter('{"a":1}'), { endpoints, alarmTopicArn: undefined }),
    ).toMatchObject({
      subscriberIds: [],
      event: undefined,
      eventType: 'unknown',
    });
  });
});
