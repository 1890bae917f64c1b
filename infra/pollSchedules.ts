// One EventBridge Scheduler schedule per organization, invoking the poller with that organization's id at
// the organization's poll interval in whole minutes. It is the watchdog of the tick chain: the cycles
// themselves follow the budget through the tick queue (pollTickQueue.ts), and an invocation that finds the
// organization not due yet costs one state read; after a deployment, or when a tick was lost, it is the
// schedule that runs the cycle and starts a new chain. A cycle that fails is not retried: the next trigger
// (a tick, or the schedule) polls afresh, while retries would spend the token's request budget twice.
import { Duration } from 'aws-cdk-lib';
import {
  Schedule,
  ScheduleExpression,
  type ScheduleGroup,
  ScheduleTargetInput,
  TimeWindow,
} from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import type { OrganizationConfig } from '../shared/config/configSchema.js';
import type { NotifierFunction } from './notifierFunction.js';
import { scheduleGroupAndInvokeRole } from './scheduleInvokeRole.js';

/**
 * EventBridge Scheduler's rates are whole minutes, one at the least, so `pollIntervalSeconds` is rounded to
 * the nearest minute (90 s → 2 min, 100 s → 2 min, 10 s → 1 min). This is the watchdog's rate only: the
 * ticks keep the pace the budget allows, never shorter than the exact interval.
 */
export function scheduleRateMinutes(pollIntervalSeconds: number): number {
  return Math.max(1, Math.round(pollIntervalSeconds / 60));
}

export interface PollSchedulesProps {
  /** Invoked by every schedule. */
  readonly poller: NotifierFunction;
  /** One schedule each, at its poll interval in whole minutes, with its id as the input. */
  readonly organizations: readonly OrganizationConfig[];
  /**
   * How long Scheduler keeps trying to deliver one invocation (it retries throttled invocations within
   * this age even with no retry attempts). The shortest it allows: a late cycle is worth less than the
   * next one.
   * @default Duration.minutes(1)
   */
  readonly maxEventAge?: Duration;
  /**
   * Whether the schedules run. Turn them off to deploy before the secrets are put.
   * @default true
   */
  readonly enabled?: boolean;
}

export class PollSchedules extends Construct {
  readonly group: ScheduleGroup;
  /** By organization id. */
  readonly schedules: ReadonlyMap<string, Schedule>;

  constructor(scope: Construct, id: string, props: PollSchedulesProps) {
    super(scope, id);
    // The stack's own group, so the role can be assumed for these schedules only.
    const { group, role } = scheduleGroupAndInvokeRole(this, {
      target: props.poller,
      description: 'meal-order-notifier: lets the poll schedules invoke the poller',
      targetName: 'the poller',
      groupName: 'schedule group',
    });
    this.group = group;
    const target = (organization: OrganizationConfig) =>
      new LambdaInvoke(props.poller.function, {
        role,
        input: ScheduleTargetInput.fromObject({ organizationId: organization.id }),
        retryAttempts: 0,
        maxEventAge: props.maxEventAge ?? Duration.minutes(1),
      });

    const schedules = new Map<string, Schedule>();
    for (const organization of props.organizations) {
      const minutes = scheduleRateMinutes(organization.pollIntervalSeconds);
      const description = `Polls ${organization.name} (${organization.id}) when due, checked every ${minutes} min; restarts its chain of ticks`;
      schedules.set(
        organization.id,
        new Schedule(this, organization.id, {
          scheduleGroup: this.group,
          schedule: ScheduleExpression.rate(Duration.minutes(minutes)),
          target: target(organization),
          // On time: a flexible window would delay the restart of a broken chain and let the schedules bunch up.
          timeWindow: TimeWindow.off(),
          description: description.slice(0, 512),
          enabled: props.enabled ?? true,
        }),
      );
    }
    this.schedules = schedules;
  }
}
