// The watchdog as deployed: one schedule, once a minute, invoking one function for every organization,
// which reads the state table and sends ticks on the poller's tick queue; no schedule, alarm or widget per
// organization; off with polling.
import { describe, expect, it } from 'vitest';
import {
  exampleConfigWithOrganizations,
  functionLogicalId,
  notifierApp,
  property,
  resourcesOfType,
} from './support/notifierApp.js';

describe('the watchdog', () => {
  const { template } = notifierApp(exampleConfigWithOrganizations(3));
  const schedules = resourcesOfType(template, 'AWS::Scheduler::Schedule');

  it('is one schedule for every organization, every minute, on time, never retried', () => {
    expect(schedules).toHaveLength(1);
    const [, schedule] = schedules[0] ?? [];
    expect(schedule?.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
    });
    const target = property<{ Arn: unknown; RetryPolicy: unknown }>(schedule?.Properties, 'Target');
    expect(JSON.stringify(target.Arn)).toContain(functionLogicalId(template, 'watchdog'));
    expect(target.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 60, MaximumRetryAttempts: 0 });
  });

  it('may publish its overdue notice to the alarm topic alone', () => {
    const watchdogRole = resourcesOfType(template, 'AWS::IAM::Policy').filter(([id]) =>
      id.startsWith('Watchdog'),
    );
    expect(watchdogRole.length).toBeGreaterThan(0);
    const statements = watchdogRole.flatMap(
      ([, policy]) =>
        property<{ Statement: { Action: string | string[]; Resource: unknown }[] }>(
          policy.Properties,
          'PolicyDocument',
        ).Statement,
    );
    const publish = statements.filter(({ Action }) => [Action].flat().includes('sns:Publish'));
    expect(publish).toHaveLength(1);
    expect(JSON.stringify(publish[0]?.Resource)).toContain(':MealOrderNotifier-alarms');
    const watchdogId = functionLogicalId(template, 'watchdog');
    const [, fn] = resourcesOfType(template, 'AWS::Lambda::Function').find(([id]) => id === watchdogId) ?? [];
    const variables = property<{ Variables: Record<string, unknown> }>(
      fn?.Properties,
      'Environment',
    ).Variables;
    expect(JSON.stringify(variables.ALARM_TOPIC_ARN)).toEqual(JSON.stringify(publish[0]?.Resource));
  });

  it('is off when polling is off', () => {
    const paused = notifierApp(exampleConfigWithOrganizations(3), {
      props: { pollingEnabled: false },
    }).template;
    const [, schedule] = resourcesOfType(paused, 'AWS::Scheduler::Schedule')[0] ?? [];
    expect(schedule?.Properties?.State).toBe('DISABLED');
  });

  it('names no organization in the template beyond the bundled config: the stack is the same for 1 and for 50', () => {
    const count = (organizations: number) => {
      const built = notifierApp(exampleConfigWithOrganizations(organizations)).template.toJSON() as {
        Resources: Record<string, unknown>;
      };
      return Object.keys(built.Resources).length;
    };
    expect(count(50)).toBe(count(1));
  });
});
