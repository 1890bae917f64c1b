// `--stack NAME`, `--region` and `--stack-outputs`: the options that point an operator command at a deployed
// stack instead of the local state file. The stack's adapters load only when a command uses them, since
// the AWS SDK clients would otherwise cost every local command about a third of its start-up.
import type { Command } from 'commander';
import type { Config } from '../../shared/config/configSchema.js';
import { CliUsageError } from '../errors.js';
import type { DeployedStack } from './deployedStack.js';

export interface StackOptions {
  stack?: string;
  region?: string;
  stackOutputs?: string;
}

/** Adds `--stack`, `--region` and `--stack-outputs` to an operator command. */
export function withStackOptions(command: Command): Command {
  return command
    .option('--stack <name>', 'work on this deployed stack (its table and queues), not the local state file')
    .option('--region <region>', "the stack's AWS region (default: AWS_REGION, or your profile's)")
    .option(
      '--stack-outputs <file>',
      "the stack's outputs from this file (as cdk deploy --outputs-file writes it) instead of CloudFormation",
    );
}

/** Refuses the AWS-only options without `--stack`, rather than ignoring them. */
export function requireStackFor(options: StackOptions): void {
  if (options.stack === undefined && (options.region !== undefined || options.stackOutputs !== undefined)) {
    throw new CliUsageError('--region and --stack-outputs need --stack NAME');
  }
}

/** Runs `use` on the deployed stack (see deployedStack.ts), which is closed afterwards. */
export async function onDeployedStack<T>(
  options: StackOptions & { stack: string },
  config: Config,
  use: (stack: DeployedStack) => Promise<T>,
): Promise<T> {
  const { withDeployedStack } = await import('./deployedStack.js');
  return withDeployedStack(options, config, use);
}
