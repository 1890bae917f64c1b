// A schedule group of its own and the role EventBridge Scheduler invokes a function with from it: only
// Scheduler may assume the role, and only for that group in this account (no confused deputy), so it
// invokes for those schedules alone. The poll schedules and the digest schedule each make one.
import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Construct } from 'constructs';
import type { NotifierFunction } from './notifierFunction.js';

export interface ScheduleInvokeRoleProps {
  /** The function the group's schedules invoke (through LambdaInvoke with the role). */
  readonly target: NotifierFunction;
  /** The role's description. */
  readonly description: string;
  /** Names the function in cdk-nag's acknowledgement, e.g. 'the poller'. */
  readonly targetName: string;
  /** Names the group there, e.g. 'schedule group'. */
  readonly groupName: string;
}

/** Adds the group (`Group`) and the role (`InvokeRole`) to `scope`. */
export function scheduleGroupAndInvokeRole(
  scope: Construct,
  props: ScheduleInvokeRoleProps,
): { group: ScheduleGroup; role: Role } {
  const group = new ScheduleGroup(scope, 'Group', { removalPolicy: RemovalPolicy.DESTROY });
  const stack = Stack.of(scope);
  const role = new Role(scope, 'InvokeRole', {
    description: props.description,
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
      conditions: {
        StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': group.scheduleGroupArn },
      },
    }),
  });
  const targetLogicalId = stack.resolve((props.target.function.node.defaultChild as CfnFunction).logicalId);
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${targetLogicalId}.Arn>:*]`,
    reason: `lambda:InvokeFunction on ${props.targetName} and its versions (\`<arn>:*\`), as LambdaInvoke grants it; the role can only be assumed for this stack's ${props.groupName}.`,
  });
  return { group, role };
}
