// Sub-minute pacing on AWS: the poller's tick queue (encrypted, TLS only, short-lived messages, no DLQ),
// its mapping to the poller one tick at a time, the poller sending to that queue and no other, its URL in
// the poller's environment, no Lambda retries of a failed invocation, and the minute schedule kept as the
// watchdog.

import { App, Duration, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { parsePollerEnvironment } from '../../functions/poller/environment.js';
import { POLLER_TIMEOUT } from '../../infra/pollerFunction.js';
import { PollTickQueue } from '../../infra/pollTickQueue.js';
import {
  functionEnvironment,
  functionLogicalId,
  logicalIdAt,
  notifierApp,
  property,
  resolveLikeAws,
  resourcesOfType,
} from './support/notifierApp.js';

const { stack, template } = notifierApp();
const queueId = logicalIdAt(stack, 'Ticks', 'Queue');
const pollerId = functionLogicalId(template, 'poller');
const resources = template.toJSON().Resources as Record<string, { Properties?: Record<string, unknown> }>;

describe('the tick queue', () => {
  it('is encrypted with SQS-managed keys, keeps a tick 20 minutes at most, and hides a taken one for 6 poller timeouts', () => {
    expect(resources[queueId]?.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 20 * 60,
      // As AWS advises for an SQS event source: a long cycle's tick does not come back while it runs.
      VisibilityTimeout: 6 * POLLER_TIMEOUT.toSeconds(),
    });
    expect(6 * POLLER_TIMEOUT.toSeconds()).toBe(24 * 60);
    // No DLQ: a tick that could not be handled is worthless, the schedule restarts the chain.
    expect(resources[queueId]?.Properties).not.toHaveProperty('RedrivePolicy');
  });

  it('refuses a visibility timeout under 6 poller timeouts', () => {
    const app = new App();
    const scope = new Stack(app, 'Scope');
    expect(
      () =>
        new PollTickQueue(scope, 'Ticks', {
          visibilityTimeout: Duration.seconds(5 * POLLER_TIMEOUT.toSeconds()),
        }),
    ).toThrow(`at least 6 times the poller's ${POLLER_TIMEOUT.toSeconds()} s timeout`);
  });

  it('refuses any request without TLS', () => {
    const policy = resourcesOfType(template, 'AWS::SQS::QueuePolicy').find(
      ([, candidate]) =>
        (candidate.Properties?.Queues as { Ref: string }[] | undefined)?.[0]?.Ref === queueId,
    );
    expect(
      property<{ Statement: unknown[] }>(policy?.[1].Properties, 'PolicyDocument').Statement,
    ).toContainEqual({
      Action: 'sqs:*',
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });
  });

  it('feeds the poller one tick per invocation, with no partial batch responses since a tick is never retried', () => {
    const mappings = resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')
      .map(([, mapping]) => mapping.Properties ?? {})
      .filter(
        (mapping) =>
          JSON.stringify(mapping.EventSourceArn) === JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] }),
      );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]).toMatchObject({ FunctionName: { Ref: pollerId }, BatchSize: 1, Enabled: true });
    expect(mappings[0]).not.toHaveProperty('FunctionResponseTypes');
  });

  it('stops feeding ticks to the poller when polling is off, so a running chain stops with the schedules', () => {
    const { stack: paused, template: pausedTemplate } = notifierApp(undefined, {
      props: { pollingEnabled: false },
    });
    const pausedQueue = logicalIdAt(paused, 'Ticks', 'Queue');
    pausedTemplate.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [pausedQueue, 'Arn'] },
      Enabled: false,
    });
  });
});

describe('the poller', () => {
  it('may send messages to the tick queue, and to no other queue', () => {
    const roleId = logicalIdAt(stack, 'Poller', 'Role');
    const statements = resourcesOfType(template, 'AWS::IAM::Policy')
      .map(([, policy]) => policy.Properties ?? {})
      .filter((policy) => (policy.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
      .flatMap(
        (policy) =>
          (
            policy.PolicyDocument as {
              Statement: { Effect: string; Action: string | string[]; Resource: unknown }[];
            }
          ).Statement,
      );
    // Whether SendMessage has a statement of its own or shares the queue's with its other actions (as
    // cdk.json's minimizePolicies merges them), the resources it is allowed on are the tick queue alone.
    const sendingTo = statements
      .filter(
        (statement) => statement.Effect === 'Allow' && [statement.Action].flat().includes('sqs:SendMessage'),
      )
      .flatMap((statement) => [statement.Resource].flat());
    expect(sendingTo).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
  });

  it('has the tick queue URL in its environment, which its parser accepts', () => {
    const variables = property<{ Variables: Record<string, unknown> }>(
      resources[pollerId]?.Properties,
      'Environment',
    ).Variables;
    expect(variables.TICK_QUEUE_URL).toEqual({ Ref: queueId });
    const environment = {
      ...functionEnvironment(template, pollerId),
      NOTIFIER_CONFIG: stack.config.pollerJson(),
    };
    expect(parsePollerEnvironment(environment).tickQueueUrl).toBe(resolveLikeAws({ Ref: queueId }, template));
  });

  it('is not retried by Lambda after a failed asynchronous invocation, and drops one older than a minute', () => {
    const configs = resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig').filter(([, config]) =>
      JSON.stringify(config.Properties?.FunctionName).includes(pollerId),
    );
    expect(configs).toHaveLength(1);
    expect(configs[0]?.[1].Properties).toMatchObject({
      FunctionName: { Ref: pollerId },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: 60,
    });
  });

  it('is invoked by no schedule: its ticks pace it, and the watchdog restarts a lost chain with a tick', () => {
    for (const [, schedule] of resourcesOfType(template, 'AWS::Scheduler::Schedule')) {
      expect(JSON.stringify(schedule.Properties?.Target)).not.toContain(pollerId);
    }
  });
});
