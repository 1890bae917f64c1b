// The event path after the table: the publisher's stream mapping, the KMS-encrypted TLS-only topics, the
// e-mail subscriptions with their compiled filter policies, one delivery queue and dead-letter queue per
// channel type (never per subscriber) with redrive, and the delivery functions' SQS mappings.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/loadConfig.js';
import {
  DELIVERY_BATCH_SIZE,
  DELIVERY_FUNCTION_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
} from '../../shared/contracts/deliveryQueueContract.js';
import {
  CHANNEL_QUEUE_POLICY,
  compileFilterPolicy,
  policyComplexity,
  SNS_MAX_VALUE_COMBINATIONS,
} from '../../shared/contracts/snsFilterPolicy.js';
import { PUBLISHER_STREAM_FILTER_PATTERN } from '../../shared/contracts/streamContract.js';
import { filterAtSnsLimit } from '../support/configFixtures.js';
import {
  type CfnResource,
  exampleConfig,
  functionLogicalId,
  logicalIdAt,
  notifierApp,
  property,
  resourcesOfType,
} from './support/notifierApp.js';

// The example's three subscribers, plus: a second e-mail recipient, a Slack channel without a filter, and
// a disabled webhook.
const config = exampleConfig();
const office = config.subscribers.find((subscriber) => subscriber.id === 'office-email');
if (office) office.to = ['office@north-school.example.org', 'head@north-school.example.org'];
config.subscribers.push(
  { id: 'all-orders', type: 'slack', webhookUrl: { env: 'ALL_ORDERS_SLACK_URL' } },
  {
    id: 'paused-hooks',
    type: 'webhook',
    url: 'https://paused.example.org/hooks',
    secret: { env: 'PAUSED_SECRET' },
    enabled: false,
  },
);
const parsed = parseConfig(config);
const { stack, template } = notifierApp(config);

const resources = template.toJSON().Resources as Record<string, CfnResource>;
const properties = (id: string) => resources[id]?.Properties ?? {};
const subscriptions = resourcesOfType(template, 'AWS::SNS::Subscription').map(
  ([, resource]) => resource.Properties ?? {},
);
const [eventTopicId] =
  resourcesOfType(template, 'AWS::SNS::Topic').find(([id]) => id.startsWith('Events')) ?? [];

/** A channel type's queue and DLQ. */
function queuesOf(type: 'slack' | 'webhook'): { queueId: string; deadLetterQueueId: string } {
  const name = type === 'slack' ? 'Slack' : 'Webhook';
  return {
    queueId: logicalIdAt(stack, 'Deliveries', name, 'Queue'),
    deadLetterQueueId: logicalIdAt(stack, 'Deliveries', name, 'DeadLetterQueue'),
  };
}

describe('topics', () => {
  it('encrypts the event topic with SNS’s AWS managed key, and pays for no key', () => {
    expect(resourcesOfType(template, 'AWS::KMS::Key')).toEqual([]);
    const topics = resourcesOfType(template, 'AWS::SNS::Topic');
    expect(topics).toHaveLength(2);
    const [, events] = topics.find(([id]) => id.startsWith('Events')) ?? [];
    expect(events?.Properties).toMatchObject({ KmsMasterKeyId: 'alias/aws/sns' });
    // The alarm topic is not encrypted: CloudWatch may use no AWS managed key (alarmDelivery.test.ts).
    const [, alarms] = topics.find(([id]) => id.startsWith('Alarms')) ?? [];
    expect(alarms?.Properties?.KmsMasterKeyId).toBeUndefined();
  });

  it('refuses publishing without TLS on both topics', () => {
    const policies = resourcesOfType(template, 'AWS::SNS::TopicPolicy');
    expect(policies).toHaveLength(2);
    for (const [, policy] of policies) {
      expect(
        property<{ Statement: unknown[] }>(policy.Properties, 'PolicyDocument').Statement,
      ).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sns:Publish',
          Principal: '*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });
});

describe('subscriptions', () => {
  it('name the filter policy scope, MessageAttributes, wherever a filter policy is set: e-mail and queues alike', () => {
    // CloudFormation fails an update that edits a filter policy on a subscription created without it.
    const filtered = subscriptions.filter((subscription) => subscription.FilterPolicy !== undefined);
    expect(new Set(filtered.map((subscription) => subscription.Protocol))).toEqual(new Set(['email', 'sqs']));
    for (const subscription of filtered) expect(subscription.FilterPolicyScope).toBe('MessageAttributes');
  });
});

describe('e-mail subscriptions', () => {
  it("subscribes each recipient with the filter policy compileFilterPolicy makes of the subscriber's filter and catch-up threshold, or a re-send to that address alone", () => {
    const subscriber = parsed.subscribers.find((candidate) => candidate.id === 'office-email');
    const email = subscriptions.filter((subscription) => subscription.Protocol === 'email');
    expect(email.map((subscription) => subscription.Endpoint).sort()).toEqual([
      'head@north-school.example.org',
      'office@north-school.example.org',
    ]);
    for (const subscription of email) {
      expect(subscription).toMatchObject({
        TopicArn: { Ref: eventTopicId },
        FilterPolicy: {
          $or: [
            // A person: its catch-ups (15 minutes, the default), and no event that was stale for them.
            compileFilterPolicy(subscriber?.filter, undefined, undefined, 900),
            { audience: [`resend-to:office-email:events:${String(subscription.Endpoint)}`] },
          ],
        },
      });
    }
  });

  it('keeps the policy of a filter at the full 150 combinations as it is, with a warning that its dead letters are forwarded by hand', () => {
    const full = exampleConfig();
    const email = full.subscribers.find((subscriber) => subscriber.type === 'email');
    if (email?.type === 'email') email.filter = filterAtSnsLimit();
    const { stack: fullStack, template: fullTemplate } = notifierApp(full);
    const policies = resourcesOfType(fullTemplate, 'AWS::SNS::Subscription')
      .map(([, resource]) => resource.Properties ?? {})
      .filter((properties) => properties.Protocol === 'email')
      .map((properties) => properties.FilterPolicy as Parameters<typeof policyComplexity>[0]);
    expect(policies.length).toBeGreaterThan(0);
    for (const policy of policies) {
      expect(policy).not.toHaveProperty('$or');
      expect(policyComplexity(policy)).toBe(SNS_MAX_VALUE_COMBINATIONS);
    }
    Annotations.fromStack(fullStack).hasWarning(
      '*',
      Match.stringLikeRegexp(
        'e-mail subscriber "office-email" takes no re-sent e-mail: its filter has 150 value combinations',
      ),
    );
  });

  it('warns at synth that SNS e-mail cannot carry the contact details a subscriber asks for', () => {
    const asking = exampleConfig();
    const email = asking.subscribers.find((subscriber) => subscriber.type === 'email');
    if (email) email.includeContactDetails = true;
    const { stack: askingStack } = notifierApp(asking);
    Annotations.fromStack(askingStack).hasWarning(
      '*',
      Match.stringLikeRegexp(
        'e-mail subscriber "office-email" asks for contact details, which SNS e-mail never carries',
      ),
    );
  });
});

describe('delivery queues', () => {
  const channelTypes = ['slack', 'webhook'] as const;

  it('subscribes one queue per channel type, with raw delivery and the one policy that keeps the digests out, however many subscribers it has', () => {
    const sqs = subscriptions.filter((subscription) => subscription.Protocol === 'sqs');
    // Two Slack and two webhook subscribers (one disabled): one subscription per channel type.
    expect(sqs).toHaveLength(2);
    for (const type of channelTypes) {
      const { queueId } = queuesOf(type);
      const subscription = sqs.find(
        (candidate) => (candidate.Endpoint as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] === queueId,
      );
      expect(subscription, type).toMatchObject({
        TopicArn: { Ref: eventTopicId },
        RawMessageDelivery: true,
        FilterPolicy: CHANNEL_QUEUE_POLICY,
      });
    }
  });

  it("keeps a channel's queues, unsubscribed, while every subscriber of it is disabled", () => {
    const onlyDisabled = exampleConfig();
    const hooks = onlyDisabled.subscribers.find((subscriber) => subscriber.type === 'webhook');
    if (hooks) hooks.enabled = false;
    const { stack: disabledStack, template: disabledTemplate } = notifierApp(onlyDisabled);
    const queueId = logicalIdAt(disabledStack, 'Deliveries', 'Webhook', 'Queue');
    expect(disabledTemplate.toJSON().Resources[queueId]?.Type).toBe('AWS::SQS::Queue');
    const endpoints = resourcesOfType(disabledTemplate, 'AWS::SNS::Subscription').map(
      ([, subscription]) =>
        (subscription.Properties?.Endpoint as { 'Fn::GetAtt'?: string[] } | undefined)?.['Fn::GetAtt']?.[0],
    );
    expect(endpoints).not.toContain(queueId);
    expect(endpoints).toContain(logicalIdAt(disabledStack, 'Deliveries', 'Slack', 'Queue'));
  });

  it('gives each queue a DLQ after MAX_RECEIVE_COUNT receives, and a visibility timeout the delivery function fits in', () => {
    for (const type of channelTypes) {
      const { queueId, deadLetterQueueId } = queuesOf(type);
      expect(properties(queueId)).toMatchObject({
        RedrivePolicy: {
          deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterQueueId, 'Arn'] },
          maxReceiveCount: MAX_RECEIVE_COUNT,
        },
        MessageRetentionPeriod: 4 * 24 * 3600,
      });
      expect(properties(queueId).VisibilityTimeout).toBeGreaterThanOrEqual(DELIVERY_FUNCTION_TIMEOUT_SECONDS);
      // Longer than the source's: a redriven message keeps its first enqueue time.
      expect(properties(deadLetterQueueId)).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600 });
    }
  });

  it('encrypts every queue and refuses any request without TLS', () => {
    const queues = resourcesOfType(template, 'AWS::SQS::Queue');
    // Two per channel type, the publisher's failure queue, the poller's tick queue and the SNS
    // subscriptions' dead-letter queue.
    expect(queues).toHaveLength(2 * channelTypes.length + 3);
    const policies = resourcesOfType(template, 'AWS::SQS::QueuePolicy').map(
      ([, policy]) => policy.Properties ?? {},
    );
    for (const [queueId, queue] of queues) {
      expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true });
      const policy = policies.find(
        (candidate) => (candidate.Queues as { Ref: string }[])[0]?.Ref === queueId,
      );
      expect(property<{ Statement: unknown[] }>(policy, 'PolicyDocument').Statement, queueId).toContainEqual({
        Action: 'sqs:*',
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      });
    }
  });

  it('lets only the event topic send to a delivery queue by its policy (the function sends by its role)', () => {
    for (const type of channelTypes) {
      const { queueId } = queuesOf(type);
      const [, policy] =
        resourcesOfType(template, 'AWS::SQS::QueuePolicy').find(
          ([, candidate]) => property<{ Ref: string }[]>(candidate.Properties, 'Queues')[0]?.Ref === queueId,
        ) ?? [];
      const statements = property<{ Statement: Record<string, unknown>[] }>(
        policy?.Properties,
        'PolicyDocument',
      ).Statement;
      expect(statements).toContainEqual({
        Action: 'sqs:SendMessage',
        Effect: 'Allow',
        Principal: { Service: 'sns.amazonaws.com' },
        Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
        Condition: { ArnEquals: { 'aws:SourceArn': { Ref: eventTopicId } } },
      });
      expect(statements.filter((statement) => statement.Effect === 'Allow')).toHaveLength(1);
    }
  });
});

describe('event source mappings', () => {
  const mappings = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping').map(
    ([, mapping]) => mapping.Properties ?? {},
  );

  it('feeds the publisher only inserted event items, splitting failing batches, with bounded retries and an on-failure queue', () => {
    const publisherId = functionLogicalId(template, 'publisher');
    const [failureQueueId] =
      resourcesOfType(template, 'AWS::SQS::Queue').find(([id]) => id.startsWith('PublisherFailureQueue')) ??
      [];
    const [tableId] = resourcesOfType(template, 'AWS::DynamoDB::Table')[0] ?? [];
    const stream = mappings.filter(
      (mapping) => (mapping.FunctionName as { Ref: string }).Ref === publisherId,
    );
    expect(stream).toEqual([
      {
        EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
        FunctionName: { Ref: publisherId },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 100,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 20,
        MaximumRecordAgeInSeconds: 86_400,
        ParallelizationFactor: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failureQueueId, 'Arn'] } } },
        FilterCriteria: { Filters: [{ Pattern: JSON.stringify(PUBLISHER_STREAM_FILTER_PATTERN) }] },
        Tags: expect.any(Array),
      },
    ]);
  });

  it("feeds each channel's queue to its delivery function, in batches with partial failures", () => {
    for (const type of ['slack', 'webhook'] as const) {
      const functionId = functionLogicalId(template, `${type}-delivery`);
      const { queueId } = queuesOf(type);
      const fed = mappings.filter(
        (candidate) => (candidate.FunctionName as { Ref?: string }).Ref === functionId,
      );
      expect(fed, type).toEqual([
        expect.objectContaining({
          EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
          BatchSize: DELIVERY_BATCH_SIZE,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          ScalingConfig: { MaximumConcurrency: 5 },
        }),
      ]);
    }
  });
});
