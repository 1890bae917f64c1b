// Least privilege, as the template states it: every permission comes from a grant on one resource, no
// action is a service-wide wildcard, no role carries a managed policy, and each function can reach exactly
// the data it uses (the poller only the organizations' tokens, each delivery function only its own
// subscribers' secrets and its channel's queues).
import { describe, expect, it } from 'vitest';
import { exampleConfig, logicalIdAt, notifierApp, resourcesOfType } from './support/notifierApp.js';

const config = exampleConfig();
// A second webhook subscriber, so "only its own" is tested against a neighbour.
config.subscribers.push({
  id: 'accounting',
  type: 'webhook',
  url: 'https://accounting.example.org/hooks',
  secret: [{ env: 'ACCOUNTING_SECRET_OLD' }, { env: 'ACCOUNTING_SECRET_NEW' }],
});
const { stack, template } = notifierApp(config);

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

const policies = resourcesOfType(template, 'AWS::IAM::Policy').map(([, policy]) => policy.Properties ?? {});
const allowStatements: Statement[] = policies.flatMap((policy) =>
  (policy.PolicyDocument as { Statement: Statement[] }).Statement.filter(
    (statement) => statement.Effect === 'Allow',
  ),
);
const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** The Allow statements of the role under the construct at `path`. */
function statementsOf(...path: string[]): Statement[] {
  const roleId = logicalIdAt(stack, ...path, 'Role');
  return policies
    .filter((policy) => (policy.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap((policy) => (policy.PolicyDocument as { Statement: Statement[] }).Statement);
}

/** Resources in one order: a policy's order means nothing, and cdk.json's minimizePolicies merges and sorts. */
const unordered = (resources: unknown[]): unknown[] =>
  [...resources].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Action → the resources it is allowed on, for one role. */
function permissions(statements: Statement[]): Record<string, unknown[]> {
  const byAction: Record<string, unknown[]> = {};
  for (const statement of statements) {
    for (const action of list(statement.Action)) {
      byAction[action] = unordered([...(byAction[action] ?? []), ...list(statement.Resource)]);
    }
  }
  return byAction;
}

const arnOf = (...path: string[]) => ({ 'Fn::GetAtt': [logicalIdAt(stack, ...path), 'Arn'] });
const refOf = (...path: string[]) => ({ Ref: logicalIdAt(stack, ...path) });

describe('IAM', () => {
  it('has no action of *, and no service-wide wildcard such as dynamodb:*, sqs:* or sns:*', () => {
    expect(allowStatements.length).toBeGreaterThan(10);
    for (const statement of allowStatements) {
      for (const action of list(statement.Action)) {
        expect(action).not.toBe('*');
        expect(action).not.toMatch(/^[a-z0-9-]+:\*$/);
      }
    }
  });

  it('allows a resource of * for dynamodb:ListStreams alone, which cannot be scoped', () => {
    const unscoped = allowStatements.filter((statement) => list(statement.Resource).includes('*'));
    expect(unscoped.flatMap((statement) => list(statement.Action))).toEqual(['dynamodb:ListStreams']);
  });

  it('gives no role a managed policy, and creates no users or groups', () => {
    for (const [, role] of resourcesOfType(template, 'AWS::IAM::Role')) {
      expect(role.Properties).not.toHaveProperty('ManagedPolicyArns');
      expect(role.Properties).not.toHaveProperty('Policies');
    }
    template.resourceCountIs('AWS::IAM::User', 0);
    template.resourceCountIs('AWS::IAM::Group', 0);
  });

  it("lets the poller use the state table, read the organizations' tokens, and consume and send its ticks, nothing else", () => {
    const table = arnOf('State', 'Table');
    const ticks = arnOf('Ticks', 'Queue');
    expect(permissions(statementsOf('Poller'))).toEqual({
      'logs:CreateLogStream': [arnOf('Poller', 'Logs')],
      'logs:PutLogEvents': [arnOf('Poller', 'Logs')],
      'dynamodb:Query': [table],
      'dynamodb:GetItem': [table],
      'dynamodb:PutItem': [table],
      'dynamodb:UpdateItem': [table],
      'dynamodb:DeleteItem': [table],
      'secretsmanager:GetSecretValue': [refOf('Secrets', 'organization-tokens')],
      'secretsmanager:DescribeSecret': [refOf('Secrets', 'organization-tokens')],
      'sqs:ReceiveMessage': [ticks],
      'sqs:ChangeMessageVisibility': [ticks],
      'sqs:GetQueueUrl': [ticks],
      'sqs:DeleteMessage': [ticks],
      'sqs:GetQueueAttributes': [ticks],
      'sqs:SendMessage': [ticks],
    });
  });

  it('lets the watchdog read the poll states, send ticks and tell the alarm topic, nothing else: no token', () => {
    const alarmTopic = {
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':sns:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':MealOrderNotifier-alarms',
        ],
      ],
    };
    expect(permissions(statementsOf('Watchdog'))).toEqual({
      'logs:CreateLogStream': [arnOf('Watchdog', 'Logs')],
      'logs:PutLogEvents': [arnOf('Watchdog', 'Logs')],
      'dynamodb:BatchGetItem': [arnOf('State', 'Table')],
      // PutItem: its own notice item only writes (overdueNotice.ts).
      'dynamodb:GetItem': [arnOf('State', 'Table')],
      'dynamodb:PutItem': [arnOf('State', 'Table')],
      'sqs:SendMessage': [arnOf('Ticks', 'Queue')],
      'sns:Publish': [alarmTopic],
    });
  });

  it('lets the publisher read the stream and publish to the encrypted event topic', () => {
    const stream = { 'Fn::GetAtt': [logicalIdAt(stack, 'State', 'Table'), 'StreamArn'] };
    const failureQueue = arnOf('Publisher', 'FailureQueue');
    expect(permissions(statementsOf('Publisher', 'Function'))).toEqual({
      'logs:CreateLogStream': [arnOf('Publisher', 'Function', 'Logs')],
      'logs:PutLogEvents': [arnOf('Publisher', 'Function', 'Logs')],
      // The topic's key is SNS's AWS managed one, whose policy lets the account use it through SNS.
      'sns:Publish': [refOf('Events', 'Topic')],
      'dynamodb:ListStreams': ['*'],
      'dynamodb:DescribeStream': [stream],
      'dynamodb:GetRecords': [stream],
      'dynamodb:GetShardIterator': [stream],
      'sqs:SendMessage': [failureQueue],
      'sqs:GetQueueAttributes': [failureQueue],
      'sqs:GetQueueUrl': [failureQueue],
    });
  });

  it("lets each delivery function consume its own channel's queue, send to it (the split, a paused re-send) and to its DLQ, and read the subscriber secrets' shards only", () => {
    const webhook = permissions(statementsOf('Delivery', 'Webhook'));
    const webhookQueue = arnOf('Deliveries', 'Webhook', 'Queue');
    const webhookDlq = arnOf('Deliveries', 'Webhook', 'DeadLetterQueue');
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']) {
      expect(webhook[action], action).toEqual([webhookQueue]);
    }
    expect(webhook['sqs:SendMessage']).toEqual(unordered([webhookQueue, webhookDlq]));
    expect(webhook['dynamodb:GetItem']).toEqual([arnOf('State', 'Table')]);
    expect(webhook['dynamodb:PutItem']).toEqual([arnOf('State', 'Table')]);
    // The subscriber secrets' shard holding its subscribers' secrets (all three fit one), never the tokens'.
    expect(webhook['secretsmanager:GetSecretValue']).toEqual([refOf('Secrets', 'subscriber-secrets')]);
    expect(
      Object.keys(webhook)
        .filter((action) => action.startsWith('dynamodb:'))
        .sort(),
    ).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);

    const slack = permissions(statementsOf('Delivery', 'Slack'));
    const slackQueue = arnOf('Deliveries', 'Slack', 'Queue');
    expect(slack['sqs:ReceiveMessage']).toEqual([slackQueue]);
    expect(slack['sqs:SendMessage']).toEqual(
      unordered([slackQueue, arnOf('Deliveries', 'Slack', 'DeadLetterQueue')]),
    );
    expect(slack['secretsmanager:GetSecretValue']).toEqual([refOf('Secrets', 'subscriber-secrets')]);
    expect(Object.keys(slack).some((action) => action.startsWith('kms:') || action.startsWith('sns:'))).toBe(
      false,
    );
  });

  it('lets the watchdog schedule invoke the watchdog and nothing else', () => {
    const poller = { 'Fn::GetAtt': [logicalIdAt(stack, 'Watchdog', 'Function'), 'Arn'] };
    const roleId = logicalIdAt(stack, 'Watchdog', 'InvokeRole');
    const statements = policies
      .filter((policy) => (policy.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
      .flatMap((policy) => (policy.PolicyDocument as { Statement: Statement[] }).Statement);
    expect(permissions(statements)).toEqual({
      'lambda:InvokeFunction': [poller, { 'Fn::Join': ['', [poller, ':*']] }],
    });
  });
});
