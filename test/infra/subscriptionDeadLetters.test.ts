// No silent loss at SNS: every subscription of the stack (e-mail, digest, the Slack and webhook channel
// queues, the alarm e-mail) has a redrive policy to the one SNS dead-letter queue, the queue lets those topics and no other
// send to it, SNS needs no key to write to it, one alarm watches it, and cdk-nag's Serverless rules no
// longer find a subscription without a redrive policy.
import { ServerlessChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { STACK_OUTPUT_KEYS } from '../../shared/contracts/stackOutputKeys.js';
import {
  type CfnResource,
  exampleConfigWithDigest,
  logicalIdAt,
  notifierApp,
  resourcesOfType,
} from './support/notifierApp.js';

// E-mail, a digest (its own subscriptions), the Slack and webhook queues, and the alarm e-mail.
const { app, stack, template } = notifierApp(exampleConfigWithDigest(), {
  props: { alarmEmail: 'oncall@example.org' },
});
const resources = template.toJSON().Resources as Record<string, CfnResource>;
const deadLetterQueueId = logicalIdAt(stack, 'SubscriptionDeadLetters', 'Queue');
const subscriptions = resourcesOfType(template, 'AWS::SNS::Subscription');
const topicIds = resourcesOfType(template, 'AWS::SNS::Topic').map(([id]) => id);

describe('the SNS subscriptions', () => {
  it('are of every kind the stack makes', () => {
    const protocols = subscriptions.map(([, resource]) => resource.Properties?.Protocol);
    expect(new Set(protocols)).toEqual(new Set(['email', 'sqs']));
    // office-email's own, its digest's, the alarm e-mail; the Slack and webhook queues.
    expect(subscriptions.length).toBeGreaterThanOrEqual(5);
    expect(subscriptions.map(([id]) => id).some((id) => id.includes('Digest'))).toBe(true);
  });

  it('each dead-letter to the one SNS dead-letter queue, created before them', () => {
    for (const [id, resource] of subscriptions) {
      expect(resource.Properties?.RedrivePolicy, id).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterQueueId, 'Arn'] },
      });
      expect(resource.DependsOn, id).toEqual(expect.arrayContaining([deadLetterQueueId]));
    }
  });
});

describe('the SNS dead-letter queue', () => {
  const queue = resources[deadLetterQueueId]?.Properties ?? {};
  const policies = resourcesOfType(template, 'AWS::SQS::QueuePolicy').filter(([, resource]) =>
    JSON.stringify(resource.Properties?.Queues).includes(deadLetterQueueId),
  );
  const statements = policies.flatMap(
    ([, resource]) =>
      (resource.Properties?.PolicyDocument as { Statement?: Record<string, unknown>[] } | undefined)
        ?.Statement ?? [],
  );

  it('is a standard queue with SQS-managed encryption: SNS needs no key policy to write to it', () => {
    expect(queue.FifoQueue).toBeUndefined();
    expect(queue.KmsMasterKeyId).toBeUndefined();
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(queue.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it("lets SNS send from the stack's topics, and only from them, in one statement", () => {
    const allows = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    const [allow] = allows;
    expect(allow).toMatchObject({
      Principal: { Service: 'sns.amazonaws.com' },
      Action: 'sqs:SendMessage',
      Resource: { 'Fn::GetAtt': [deadLetterQueueId, 'Arn'] },
    });
    const sources = (allow?.Condition as { ArnEquals?: { 'aws:SourceArn'?: unknown } } | undefined)
      ?.ArnEquals?.['aws:SourceArn'];
    const subscribedTopics = new Set(
      subscriptions.map(([, resource]) => JSON.stringify(resource.Properties?.TopicArn)),
    );
    expect(new Set((sources as unknown[]).map((source) => JSON.stringify(source)))).toEqual(subscribedTopics);
    // The event topic and the alarm topic.
    expect(subscribedTopics.size).toBe(2);
    for (const id of topicIds) expect(subscribedTopics).toContain(JSON.stringify({ Ref: id }));
  });

  it('refuses anything not over TLS, like every queue of the stack', () => {
    expect(statements.some((statement) => statement.Effect === 'Deny')).toBe(true);
  });

  it('is named in the outputs, for `deliveries --stack` and `replay --stack`', () => {
    expect(template.toJSON().Outputs[STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue].Value).toEqual({
      Ref: deadLetterQueueId,
    });
  });
});

describe('the alarm on it', () => {
  const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm').filter(([, resource]) =>
    JSON.stringify(resource.Properties?.Metrics ?? []).includes(deadLetterQueueId),
  );

  it('is one, for every subscription: its messages, and what SNS could not even put on it', () => {
    expect(alarms).toHaveLength(1);
    const properties = alarms[0]?.[1].Properties ?? {};
    const metrics = properties.Metrics as {
      Id: string;
      Expression?: string;
      MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: unknown }[] } };
    }[];
    const stats = metrics.filter((metric) => metric.MetricStat !== undefined);
    expect(stats.map((metric) => metric.MetricStat?.Metric.MetricName).sort()).toEqual([
      'ApproximateNumberOfMessagesVisible',
      'NumberOfNotificationsFailedToRedriveToDlq',
      'NumberOfNotificationsFailedToRedriveToDlq',
    ]);
    const expression = metrics.find((metric) => metric.Expression !== undefined)?.Expression ?? '';
    for (const { Id } of stats) expect(expression).toContain(`FILL(${Id}, 0)`);
    expect(properties).toMatchObject({
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(properties.AlarmActions).toHaveLength(1);
  });

  it('says what to do first', () => {
    const description = String(alarms[0]?.[1].Properties?.AlarmDescription);
    expect(description).toContain('meal-notifier deliveries --stack MealOrderNotifier --failed');
    expect(description).toContain('meal-notifier replay --stack MealOrderNotifier');
    expect(description.length).toBeLessThanOrEqual(1024);
  });
});

describe("cdk-nag's Serverless rules", () => {
  it('find no subscription without a redrive policy', () => {
    const findings = new ServerlessChecks().validateScope(app).violations.map(({ ruleName }) => ruleName);
    expect(findings.filter((rule) => rule.includes('SNSRedrivePolicy'))).toEqual([]);
  });
});
