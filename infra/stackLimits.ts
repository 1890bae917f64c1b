// CloudFormation takes at most 500 resources and 200 outputs in a stack, and CloudWatch at most 500 widgets
// on a dashboard; past them a deployment fails halfway with a message that says nothing of the config.
// Each organization adds a schedule, an alarm and a dashboard row, and each Slack or webhook subscriber a
// queue pair, a subscription, alarms, outputs and a row, so the stack counts them at synth time instead
// and refuses a config that cannot fit, saying how to split it.
import { CfnOutput, CfnResource, type Stack } from 'aws-cdk-lib';
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

function label(key: keyof typeof STACK_LIMITS): string {
  return {
    resources: 'CloudFormation resources',
    outputs: 'stack outputs',
    dashboardWidgets: 'dashboard widgets',
  }[key];
}
