// One EventBridge Scheduler schedule per organization: its rate (the poll interval in whole minutes), the
// organization's id as the poller's input, no retries and a short event age so missed cycles never pile
// up, and a role that can invoke the poller for these schedules only.
import { describe, expect, it } from 'vitest';
import { NotifierConfig } from '../../infra/notifierConfig.js';
import { scheduleRateMinutes } from '../../infra/pollSchedules.js';
import { AWS_DEFAULT_POLL_INTERVAL_SECONDS } from '../../shared/contracts/awsPollSettings.js';
import { exampleConfig, notifierApp, property, resourcesOfType } from './support/notifierApp.js';

const EAST = '0d7c9a2e-1f3b-4c5d-8e6f-7a8b9c0d1e2f';
const WEST = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';

describe('scheduleRateMinutes', () => {
  it('rounds the poll interval to the nearest whole minute, one at the least', () => {
    expect(scheduleRateMinutes(60)).toBe(1);
    expect(scheduleRateMinutes(10)).toBe(1);
    expect(scheduleRateMinutes(2)).toBe(1);
    expect(scheduleRateMinutes(89)).toBe(1);
    expect(scheduleRateMinutes(90)).toBe(2);
    expect(scheduleRateMinutes(300)).toBe(5);
    expect(scheduleRateMinutes(86_400)).toBe(1_440);
  });
});

describe('poll schedules', () => {
  const config = exampleConfig();
  const [north] = config.organizations;
  config.organizations.push(
    {
      ...north,
      id: EAST.toUpperCase(),
      name: 'East School',
      token: { env: 'EAST_TOKEN' },
      pollIntervalSeconds: 300,
    },
    { ...north, id: WEST, name: 'West School', token: { env: 'WEST_TOKEN' }, pollIntervalSeconds: 90 },
  );
  const { template } = notifierApp(config);
  const schedules = resourcesOfType(template, 'AWS::Scheduler::Schedule').map(
    ([, schedule]) => schedule.Properties,
  );
  const scheduleOf = (organizationId: string) =>
    schedules.find((schedule) =>
      property<{ Input: string }>(schedule, 'Target').Input.includes(organizationId),
    );

  it('creates one schedule per organization, at its rate, with its id (lower-cased, as the poller compares it) as input', () => {
    expect(schedules).toHaveLength(3);
    expect(scheduleOf('3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f')).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      Target: { Input: JSON.stringify({ organizationId: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f' }) },
    });
    expect(scheduleOf(EAST)).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      Target: { Input: JSON.stringify({ organizationId: EAST }) },
    });
    expect(scheduleOf(WEST)).toMatchObject({ ScheduleExpression: 'rate(2 minutes)' });
  });

  it('never retries a cycle, drops one older than a minute, and fires on time', () => {
    for (const schedule of schedules) {
      expect(schedule).toMatchObject({
        State: 'ENABLED',
        FlexibleTimeWindow: { Mode: 'OFF' },
        Target: { RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 } },
      });
    }
  });

  it('runs a failed cycle once: Lambda does not retry the asynchronous invocation the schedule makes either', () => {
    const [pollerId] =
      resourcesOfType(template, 'AWS::Lambda::Function').find(([id]) => id.startsWith('Poller')) ?? [];
    // The schedules invoke the unqualified function, which is what the $LATEST invoke config applies to.
    for (const schedule of schedules) {
      expect(schedule).toMatchObject({ Target: { Arn: { 'Fn::GetAtt': [pollerId, 'Arn'] } } });
    }
    const configs = resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig').map(
      ([, config]) => config.Properties,
    );
    expect(configs).toEqual([
      expect.objectContaining({
        FunctionName: { Ref: pollerId },
        Qualifier: '$LATEST',
        MaximumRetryAttempts: 0,
      }),
    ]);
    // Long enough to ride out a short throttle, shorter than the next schedule's interval.
    const maximumAge = property<number>(configs[0], 'MaximumEventAgeInSeconds');
    expect(maximumAge).toBeGreaterThanOrEqual(60);
    expect(maximumAge).toBeLessThanOrEqual(120);
  });

  it("targets the poller from the stack's own schedule group, with a role only that group may assume", () => {
    const [pollerId] =
      resourcesOfType(template, 'AWS::Lambda::Function').find(([id]) => id.startsWith('Poller')) ?? [];
    const groups = resourcesOfType(template, 'AWS::Scheduler::ScheduleGroup');
    expect(groups).toHaveLength(1);
    const [groupId, group] = groups[0] ?? [];
    for (const schedule of schedules) {
      expect(schedule).toMatchObject({
        GroupName: group?.Properties?.Name,
        Target: { Arn: { 'Fn::GetAtt': [pollerId, 'Arn'] } },
      });
    }
    const roles = resourcesOfType(template, 'AWS::IAM::Role').filter(([id]) =>
      id.startsWith('SchedulesInvokeRole'),
    );
    expect(roles).toHaveLength(1);
    expect(roles[0]?.[1].Properties?.AssumeRolePolicyDocument).toMatchObject({
      Statement: [
        {
          Action: 'sts:AssumeRole',
          Principal: { Service: 'scheduler.amazonaws.com' },
          Condition: {
            StringEquals: {
              'aws:SourceAccount': { Ref: 'AWS::AccountId' },
              'aws:SourceArn': { 'Fn::GetAtt': [groupId, 'Arn'] },
            },
          },
        },
      ],
    });
  });

  it('polls an organization whose config sets no interval once a minute on AWS: its poller config, schedule and alarm agree', () => {
    const written = exampleConfig();
    for (const organization of written.organizations) delete organization.pollIntervalSeconds;
    const { stack, template: defaults } = notifierApp(written);
    // What the cost section prices: a cycle a minute, not the local runner's 10 s.
    expect(AWS_DEFAULT_POLL_INTERVAL_SECONDS).toBe(60);
    const pollerConfig = JSON.parse(stack.config.pollerJson()) as {
      organizations: { pollIntervalSeconds?: number }[];
    };
    expect(pollerConfig.organizations.map((o) => o.pollIntervalSeconds)).toEqual([60]);
    expect(stack.config.parsed.organizations.map((o) => o.pollIntervalSeconds)).toEqual([60]);
    defaults.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'rate(1 minute)' });
    defaults.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'PollOverdue',
      EvaluationPeriods: 2,
      Period: 60,
    });
    // A config that sets the interval keeps it.
    expect(new NotifierConfig(config).parsed.organizations.map((o) => o.pollIntervalSeconds)).toEqual([
      60, 300, 90,
    ]);
  });

  it('deploys the schedules disabled when polling is off', () => {
    const { template: paused } = notifierApp(exampleConfig(), { props: { pollingEnabled: false } });
    paused.hasResourceProperties('AWS::Scheduler::Schedule', { State: 'DISABLED' });
  });
});
