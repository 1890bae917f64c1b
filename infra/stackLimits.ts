// CloudFormation takes at most 500 resources and 200 outputs in a stack, and CloudWatch at most 500 widgets
// on a dashboard; past them a deployment fails halfway with a message that says nothing of the config.
// Organizations and Slack or webhook subscribers add none but a secret shard and its output per 200 names,
// and an e-mail recipient its subscription; the stack still counts them at synth time and refuses a config
// that cannot fit, saying how to split it.
import { CfnOutput, CfnResource, type Stack } from 'aws-cdk-lib';
import { CfnSubscription, type ITopic } from 'aws-cdk-lib/aws-sns';
import { DeploymentError } from './deploymentError.js';

export const STACK_LIMITS = { resources: 500, outputs: 200, dashboardWidgets: 500 } as const;

/** @throws DeploymentError naming what is over its limit and what to do */
export function assertStackFits(stack: Stack, dashboardWidgets: number): void {
  const constructs = stack.node.findAll();
  const counts = {
    resources: constructs.filter((construct) => construct instanceof CfnResource).length,
    outputs: constructs.filter((construct) => construct instanceof CfnOutput).length,
    dashboardWidgets,
  };
  const over = (Object.keys(STACK_LIMITS) as Array<keyof typeof STACK_LIMITS>).filter(
    (key) => counts[key] > STACK_LIMITS[key],
  );
  if (over.length === 0) return;
  const what = over.map((key) => `${counts[key]} ${label(key)} (the limit is ${STACK_LIMITS[key]})`);
  throw new DeploymentError(
    `the config needs ${what.join(' and ')} in stack ${stack.stackName}: split its organizations or subscribers across two configs, each deployed under its own -c stackName`,
  );
}

/**
 * SNS's default quota of filter policies on one topic: every e-mail recipient's subscription, each of its
 * digest subscriptions and each Slack or webhook queue's subscription has one. A raised quota is passed
 * as `-c snsFilterPolicies=<n>` (deploymentSettings.ts).
 */
export const DEFAULT_FILTER_POLICIES_PER_TOPIC = 200;

/** @throws DeploymentError naming the number of filtered subscriptions on `topic` and the quota */
export function assertFilterPoliciesFit(
  stack: Stack,
  topic: ITopic,
  quota: number = DEFAULT_FILTER_POLICIES_PER_TOPIC,
): void {
  const topicArn = JSON.stringify(stack.resolve(topic.topicArn));
  const filtered = stack.node
    .findAll()
    .filter(
      (construct): construct is CfnSubscription =>
        construct instanceof CfnSubscription &&
        construct.filterPolicy !== undefined &&
        JSON.stringify(stack.resolve(construct.topicArn)) === topicArn,
    ).length;
  if (filtered <= quota) return;
  throw new DeploymentError(
    `the config needs ${filtered} filtered subscriptions on the event topic (SNS allows ${quota} filter policies on a topic) in stack ${stack.stackName}: fewer e-mail recipients or digests, two configs each under its own -c stackName, or a raised SNS quota passed as -c snsFilterPolicies=<n>`,
  );
}

function label(key: keyof typeof STACK_LIMITS): string {
  return {
    resources: 'CloudFormation resources',
    outputs: 'stack outputs',
    dashboardWidgets: 'dashboard widgets',
  }[key];
}
