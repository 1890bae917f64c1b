// E-mail digests on AWS, as the template states them: the digest function and its hourly schedule exist
// only when a subscriber has a digest; the function may read the table, write its claims and publish to the
// topic, nothing else; the digest subscriber's recipients each get a subscription to its digests alone,
// and its immediate subscriptions leave the digest's types out.
import { describe, expect, it } from 'vitest';
import { parseDigestEnvironment } from '../../functions/digest/environment.js';
import { compileFilterPolicy, digestFilterPolicy } from '../../shared/contracts/snsFilterPolicy.js';
import {
  exampleConfig,
  functionEnvironment,
  logicalIdAt,
  notifierApp,
  resourcesOfType,
} from './support/notifierApp.js';

const config = exampleConfig();
config.subscribers.push(
  {
    id: 'office-digest',
    type: 'email',
    to: ['office@north-school.example.org', 'head@north-school.example.org'],
    digest: { every: '1h', types: ['order.created', 'order.completed'] },
  },
  {
    id: 'digest-only',
    type: 'email',
    to: ['kitchen@north-school.example.org'],
    filter: { types: ['order.created'] },
    digest: { every: '1d', at: '17:30', types: ['order.created'] },
  },
);
const { stack, template } = notifierApp(config);
const digestFunctionId = logicalIdAt(stack, 'Digest', 'Function');
const subscriptions = resourcesOfType(template, 'AWS::SNS::Subscription').map(
  ([, subscription]) => subscription.Properties ?? {},
);

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

describe('without a digest', () => {
  it('deploys no digest function and no schedule for it', () => {
    const { template: plain } = notifierApp();
    const functions = resourcesOfType(plain, 'AWS::Lambda::Function');
    expect(functions.some(([, fn]) => String(fn.Properties?.Description ?? '').includes('digests'))).toBe(
      false,
    );
    expect(resourcesOfType(plain, 'AWS::Scheduler::ScheduleGroup')).toHaveLength(1);
  });
});

describe('the digest function', () => {
  it('runs on Node.js 24, ARM64, with the table, the topic and a config cut to digest subscribers', () => {
    const fn = resourcesOfType(template, 'AWS::Lambda::Function').find(([id]) => id === digestFunctionId);
    expect(fn?.[1].Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Timeout: 120,
    });
    const environment = functionEnvironment(template, digestFunctionId);
    const parsed = parseDigestEnvironment({
      ...environment,
      NOTIFIER_CONFIG: stack.config.digestJson(),
    });
    expect(parsed.topicArn).toMatch(/^arn:aws:sns:/);
    expect(parsed.config.subscribers.map((subscriber) => subscriber.id)).toEqual([
      'office-digest',
      'digest-only',
    ]);
  });

  it('is invoked hourly, a minute past the hour, by a role only its schedule group may assume', () => {
    const schedules = resourcesOfType(template, 'AWS::Scheduler::Schedule')
      .map(([, schedule]) => schedule.Properties ?? {})
      .filter((properties) => JSON.stringify(properties.Target).includes(digestFunctionId));
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({
      ScheduleExpression: 'cron(1 * * * ? *)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: { RetryPolicy: { MaximumRetryAttempts: 0 } },
    });
  });

  it('is deployed disabled when polling is off (-c polling=off), like the poll schedules', () => {
    const { stack: paused, template: pausedTemplate } = notifierApp(config, {
      props: { pollingEnabled: false },
    });
    const pausedFunctionId = logicalIdAt(paused, 'Digest', 'Function');
    const schedules = resourcesOfType(pausedTemplate, 'AWS::Scheduler::Schedule')
      .map(([, schedule]) => schedule.Properties ?? {})
      .filter((properties) => JSON.stringify(properties.Target).includes(pausedFunctionId));
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({ State: 'DISABLED' });
  });

  it('may query the table, put and update its claims, and publish to the topic: nothing else', () => {
    const roleId = logicalIdAt(stack, 'Digest', 'Role');
    const statements = resourcesOfType(template, 'AWS::IAM::Policy')
      .map(([, policy]) => policy.Properties ?? {})
      .filter((policy) => (policy.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
      .flatMap((policy) => (policy.PolicyDocument as { Statement: Statement[] }).Statement);
    const actions = statements.flatMap((statement) =>
      Array.isArray(statement.Action) ? statement.Action : [statement.Action],
    );
    expect(new Set(actions)).toEqual(
      new Set([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'dynamodb:Query',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'sns:Publish',
      ]),
    );
    const tableArn = { 'Fn::GetAtt': [logicalIdAt(stack, 'State', 'Table'), 'Arn'] };
    const dynamo = statements.find((statement) => String(statement.Action).includes('dynamodb:Query'));
    expect(JSON.stringify(dynamo?.Resource)).toContain(JSON.stringify(tableArn));
  });
});

describe('digest subscriptions', () => {
  const email = (address: string) =>
    subscriptions.filter(
      (subscription) => subscription.Protocol === 'email' && subscription.Endpoint === address,
    );

  it("gives each recipient its digests alone, and its other types at once, the digest's types left out", () => {
    for (const address of ['office@north-school.example.org', 'head@north-school.example.org']) {
      const policies = email(address).map((subscription) => subscription.FilterPolicy);
      expect(policies).toContainEqual({
        $or: [
          digestFilterPolicy('office-digest'),
          { audience: [`resend-to:office-digest:digest:${address}`] },
        ],
      });
    }
    // office@ is also office-email's recipient (the example's filter); head@ shares it too.
    expect(email('office@north-school.example.org').map((s) => s.FilterPolicy)).toContainEqual({
      $or: [
        compileFilterPolicy(undefined, undefined, ['order.created', 'order.completed'], 900),
        { audience: ['resend-to:office-digest:events:office@north-school.example.org'] },
      ],
    });
  });

  it('subscribes a digest that takes every type its filter lets through to its digests only', () => {
    expect(email('kitchen@north-school.example.org').map((s) => s.FilterPolicy)).toEqual([
      {
        $or: [
          digestFilterPolicy('digest-only'),
          { audience: ['resend-to:digest-only:digest:kitchen@north-school.example.org'] },
        ],
      },
    ]);
  });

  it('leaves no subscription without a policy, so no other subscriber gets a digest', () => {
    for (const subscription of subscriptions) expect(subscription.FilterPolicy).toBeDefined();
  });

  it('names the filter policy scope, MessageAttributes, on every subscription, the digest ones too', () => {
    // CloudFormation fails an update that edits a filter policy on a subscription created without it.
    expect(subscriptions.length).toBeGreaterThan(3);
    for (const subscription of subscriptions) {
      expect(subscription.FilterPolicyScope).toBe('MessageAttributes');
    }
  });
});
