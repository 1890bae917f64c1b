// The digest function's schedule: EventBridge Scheduler invokes it every hour, a minute past the hour
// (UTC), so an hourly digest goes out a minute or two after its period ends. A daily digest whose `at` is
// not on the hour, or an organization whose zone is offset by half an hour, waits for the next run.
import { Duration } from 'aws-cdk-lib';
import { Schedule, ScheduleExpression, type ScheduleGroup, TimeWindow } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import type { NotifierFunction } from './notifierFunction.js';
import { scheduleGroupAndInvokeRole } from './scheduleInvokeRole.js';

export interface DigestScheduleProps {
  /** The digest function. */
  readonly digest: NotifierFunction;
  /**
   * When it runs (UTC).
   * @default ScheduleExpression.cron({ minute: '1' }), hourly, a minute past the hour
   */
  readonly schedule?: ScheduleExpression;
  /** @default true */
  readonly enabled?: boolean;
}

export class DigestSchedule extends Construct {
  readonly group: ScheduleGroup;
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: DigestScheduleProps) {
    super(scope, id);
    // Its own group, so the role can be assumed for this schedule only.
    const { group, role } = scheduleGroupAndInvokeRole(this, {
      target: props.digest,
      description: 'meal-order-notifier: lets the digest schedule invoke the digest function',
      targetName: 'the digest function',
      groupName: 'digest schedule group',
    });
    this.group = group;
    this.schedule = new Schedule(this, 'Hourly', {
      scheduleGroup: this.group,
      schedule: props.schedule ?? ScheduleExpression.cron({ minute: '1' }),
      // Not retried by Scheduler either: the next run sends whatever this one did not.
      target: new LambdaInvoke(props.digest.function, {
        role,
        retryAttempts: 0,
        maxEventAge: Duration.minutes(5),
      }),
      timeWindow: TimeWindow.off(),
      description: 'Builds and sends the e-mail digests of the periods that have ended',
      enabled: props.enabled ?? true,
    });
  }
}
