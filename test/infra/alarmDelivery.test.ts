// Alarms reach the alarm topic's subscribers: CloudWatch, a service principal with no IAM policy of its own,
// may only publish what the topic's policy allows, and only with a key whose policy lets it. enforceSSL
// replaces SNS's default topic policy, so without a statement of our own no alarm would ever arrive. The
// check below reads the template the way those two policies would be evaluated for each alarm's ARN.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Alarm, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { type CfnTopic, Topic } from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { alarmNamePrefix, alarmTopicName } from '../../infra/alarms.js';
import {
  ACCOUNT,
  type CfnResource,
  exampleConfig,
  notifierApp,
  property,
  REGION,
  resolveLikeAws,
  resourcesOfType,
} from './support/notifierApp.js';

interface Statement {
  Effect: 'Allow' | 'Deny';
  Principal?: unknown;
  Action: string | string[];
  Resource?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

const CLOUDWATCH = 'cloudwatch.amazonaws.com';

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** An IAM wildcard pattern (`*`, `?`) as a regular expression over the whole value. */
function wildcard(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

function namesCloudWatch(statement: Statement): boolean {
  const principal = statement.Principal as { Service?: string | string[] } | undefined;
  return list(principal?.Service).includes(CLOUDWATCH);
}

function allowsAction(statement: Statement, action: string): boolean {
  return list(statement.Action).some((pattern) => wildcard(pattern).test(action));
}

/**
 * Whether every condition of the statement holds for a request with this context. A condition on a key
 * the request does not carry fails, as IAM evaluates it; an operator this check does not know fails too.
 */
function conditionsHold(statement: Statement, context: Record<string, string>, template: Template): boolean {
  return Object.entries(statement.Condition ?? {}).every(([operator, entries]) =>
    Object.entries(entries).every(([key, expected]) => {
      const actual = context[key];
      if (actual === undefined) return false;
      const values = list(expected).map((value) => resolveLikeAws(value, template));
      if (operator === 'StringEquals' || operator === 'ArnEquals') return values.includes(actual);
      if (operator === 'ArnLike' || operator === 'StringLike')
        return values.some((value) => wildcard(value).test(actual));
      if (operator === 'Bool') return values.includes(actual);
      return false;
    }),
  );
}

/** Why CloudWatch could not deliver the template's alarms to the topics they notify; none when it can. */
function alarmDeliveryProblems(template: Template): string[] {
  const resources = template.toJSON().Resources as Record<string, CfnResource>;
  const problems: string[] = [];
  const topicPolicies = resourcesOfType(template, 'AWS::SNS::TopicPolicy');
  for (const [, alarm] of resourcesOfType(template, 'AWS::CloudWatch::Alarm')) {
    const name = alarm.Properties?.AlarmName;
    if (typeof name !== 'string') {
      problems.push('an alarm has no explicit name, so no topic policy can name it');
      continue;
    }
    // IAM compares an ARN's parts between colons: a colon in the name would make it a part of its own.
    if (name.includes(':')) problems.push(`alarm "${name}": a colon in an alarm name splits its ARN`);
    const alarmArn = `arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:${name}`;
    const actions = [...list(alarm.Properties?.AlarmActions), ...list(alarm.Properties?.OKActions)];
    for (const action of actions as { Ref?: string }[]) {
      const topicId = action.Ref;
      const topic = topicId === undefined ? undefined : resources[topicId];
      if (topicId === undefined || topic?.Type !== 'AWS::SNS::Topic') continue;
      const topicName = topic.Properties?.TopicName;
      const topicArn =
        typeof topicName === 'string'
          ? `arn:aws:sns:${REGION}:${ACCOUNT}:${topicName}`
          : resolveLikeAws({ Ref: topicId }, template);
      const publish = {
        'aws:SourceAccount': ACCOUNT,
        'aws:SourceArn': alarmArn,
        'aws:SecureTransport': 'true',
      };
      const statements = topicPolicies
        .filter(([, policy]) =>
          list(policy.Properties?.Topics).some((ref) => (ref as { Ref?: string }).Ref === topicId),
        )
        .flatMap(
          ([, policy]) => property<{ Statement: Statement[] }>(policy.Properties, 'PolicyDocument').Statement,
        )
        .filter((statement) =>
          list(statement.Resource).some((ref) => (ref as { Ref?: string }).Ref === topicId),
        );
      const applies = (statement: Statement) =>
        allowsAction(statement, 'sns:Publish') && conditionsHold(statement, publish, template);
      const allowed = statements.some(
        (statement) => statement.Effect === 'Allow' && namesCloudWatch(statement) && applies(statement),
      );
      const denied = statements.some(
        (statement) =>
          statement.Effect === 'Deny' &&
          (statement.Principal === '*' || namesCloudWatch(statement)) &&
          applies(statement),
      );
      if (!allowed || denied) {
        problems.push(
          `alarm "${name}": the policy of topic ${topicId} does not let ${CLOUDWATCH} sns:Publish it`,
        );
      }

      const topicKey = topic.Properties?.KmsMasterKeyId;
      // An AWS managed key's policy cannot let CloudWatch use it: no alarm reaches such a topic.
      if (typeof topicKey === 'string' && topicKey.startsWith('alias/aws/')) {
        problems.push(
          `alarm "${name}": topic ${topicId} is encrypted with ${topicKey}, which CloudWatch may not use`,
        );
        continue;
      }
      const keyId = (topicKey as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
      if (keyId === undefined) continue;
      const keyStatements = property<{ Statement: Statement[] }>(
        resources[keyId]?.Properties,
        'KeyPolicy',
      ).Statement;
      const useKey = { 'kms:EncryptionContext:aws:sns:topicArn': topicArn, 'aws:SourceAccount': ACCOUNT };
      for (const kmsAction of ['kms:GenerateDataKey', 'kms:Decrypt']) {
        const keyAllowed = keyStatements.some(
          (statement) =>
            statement.Effect === 'Allow' &&
            namesCloudWatch(statement) &&
            allowsAction(statement, kmsAction) &&
            conditionsHold(statement, useKey, template),
        );
        if (!keyAllowed) {
          problems.push(
            `alarm "${name}": key ${keyId} does not let ${CLOUDWATCH} ${kmsAction} for topic ${topicId}`,
          );
        }
      }
    }
  }
  return problems;
}

const { template } = notifierApp(exampleConfig(), { props: { alarmEmail: 'oncall@example.org' } });
const [alarmTopicId, alarmTopic] =
  resourcesOfType(template, 'AWS::SNS::Topic').find(([id]) => id.startsWith('Alarms')) ?? [];

/** The statements of the alarm topic's policy. */
function alarmTopicStatements(): Statement[] {
  const [, policy] =
    resourcesOfType(template, 'AWS::SNS::TopicPolicy').find(([, candidate]) =>
      list(candidate.Properties?.Topics).some((ref) => (ref as { Ref?: string }).Ref === alarmTopicId),
    ) ?? [];
  return property<{ Statement: Statement[] }>(policy?.Properties, 'PolicyDocument').Statement;
}

describe('alarm delivery', () => {
  it('lets CloudWatch publish to the alarm topic for this account and the alarms named with this stack’s prefix only', () => {
    const statements = alarmTopicStatements();
    const statement = statements.find(
      (candidate) => candidate.Effect === 'Allow' && namesCloudWatch(candidate),
    );
    expect(statement).toMatchObject({
      Action: 'sns:Publish',
      Principal: { Service: CLOUDWATCH },
      Resource: { Ref: alarmTopicId },
      Condition: {
        StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
        ArnLike: { 'aws:SourceArn': expect.anything() },
      },
    });
    expect(resolveLikeAws(statement?.Condition?.ArnLike?.['aws:SourceArn'], template)).toBe(
      `arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:MealOrderNotifier/*`,
    );
    // TLS-only publishing stays.
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('leaves the alarm topic unencrypted, which CloudWatch can always publish to, and has no key to pay for', () => {
    expect(alarmTopic?.Properties?.TopicName).toBe(alarmTopicName('MealOrderNotifier'));
    expect(alarmTopic?.Properties?.KmsMasterKeyId).toBeUndefined();
    expect(resourcesOfType(template, 'AWS::KMS::Key')).toEqual([]);
  });

  it('delivers every alarm: each topic an alarm notifies lets CloudWatch publish that alarm and use its key', () => {
    const alarms = resourcesOfType(template, 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(10);
    for (const [, alarm] of alarms) {
      expect(String(alarm.Properties?.AlarmName)).toMatch(
        new RegExp(`^${alarmNamePrefix('MealOrderNotifier')}`),
      );
    }
    expect(alarmDeliveryProblems(template)).toEqual([]);
  });

  it('finds a topic encrypted with the AWS managed key, which CloudWatch may not use', () => {
    const stack = new Stack(new App(), 'Managed');
    const topic = new Topic(stack, 'Topic');
    (topic.node.defaultChild as CfnTopic).kmsMasterKeyId = 'alias/aws/sns';
    new Alarm(stack, 'Alarm', {
      alarmName: 'Managed/errors',
      metric: new Metric({ namespace: 'N', metricName: 'M' }),
      threshold: 0,
      evaluationPeriods: 1,
    }).addAlarmAction(new SnsAction(topic));
    expect(alarmDeliveryProblems(Template.fromStack(stack))).toContainEqual(
      expect.stringContaining('alias/aws/sns, which CloudWatch may not use'),
    );
  });

  it('finds the defect it guards against: a TLS-only topic with no statement for CloudWatch', () => {
    const stack = new Stack(new App(), 'Broken');
    const key = new Key(stack, 'Key');
    // What the stack used to do: enforceSSL's policy replaces SNS's default one, and the key is granted.
    const topic = new Topic(stack, 'Topic', { masterKey: key, enforceSSL: true });
    key.grant(new ServicePrincipal(CLOUDWATCH), 'kms:Decrypt', 'kms:GenerateDataKey*');
    new Alarm(stack, 'Alarm', {
      alarmName: 'Broken/errors',
      metric: new Metric({ namespace: 'N', metricName: 'M' }),
      threshold: 0,
      evaluationPeriods: 1,
    }).addAlarmAction(new SnsAction(topic));
    expect(alarmDeliveryProblems(Template.fromStack(stack))).toEqual([
      expect.stringContaining('does not let cloudwatch.amazonaws.com sns:Publish it'),
    ]);
  });

  it("lets no alarm of another stack through, even one whose stack name starts with this one's", () => {
    const staging = notifierApp(exampleConfig(), { stackName: 'MealOrderNotifierStaging' }).template;
    expect(alarmDeliveryProblems(staging)).toEqual([]);
    const statement = alarmTopicStatements().find(namesCloudWatch);
    const pattern = wildcard(resolveLikeAws(statement?.Condition?.ArnLike?.['aws:SourceArn'], template));
    const stagingAlarms = resourcesOfType(staging, 'AWS::CloudWatch::Alarm');
    expect(stagingAlarms.length).toBeGreaterThan(0);
    for (const [, alarm] of stagingAlarms) {
      expect(
        pattern.test(`arn:aws:cloudwatch:${REGION}:${ACCOUNT}:alarm:${alarm.Properties?.AlarmName}`),
      ).toBe(false);
    }
  });
});
