// Reads a deployed stack's outputs (key → value): from CloudFormation (DescribeStacks), or from a file, either
// the one `cdk deploy --outputs-file FILE` writes ({ "<stack>": { "<key>": "<value>" } }) or a flat
// { "<key>": "<value>" } object, for a stack reached through endpoint overrides (DynamoDB Local) or an
// operator without cloudformation:DescribeStacks.
import { readFile } from 'node:fs/promises';
import { type CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { StackOutputsError } from '../../shared/operations/errors.js';
import { stackAccessError } from './stackAccessError.js';

export type StackOutputs = Record<string, string>;

export async function stackOutputsFromCloudFormation(
  cloudFormation: CloudFormationClient,
  stackName: string,
): Promise<StackOutputs> {
  let outputs: { OutputKey?: string; OutputValue?: string }[];
  try {
    const answer = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    outputs = answer.Stacks?.[0]?.Outputs ?? [];
  } catch (error) {
    if (error instanceof Error && /does not exist/.test(error.message)) {
      const region = await cloudFormation.config.region().catch(() => 'unknown');
      throw new StackOutputsError(
        `no stack ${stackName} in region ${region}: check --stack and --region (or AWS_REGION)`,
        { cause: error },
      );
    }
    throw stackAccessError(`stack ${stackName}`, error, 'AWS_ENDPOINT_URL_CLOUDFORMATION');
  }
  return Object.fromEntries(
    outputs.flatMap(({ OutputKey, OutputValue }) =>
      OutputKey && OutputValue !== undefined ? [[OutputKey, OutputValue]] : [],
    ),
  );
}

export async function stackOutputsFromFile(path: string, stackName: string): Promise<StackOutputs> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const detail = error instanceof SyntaxError ? 'not JSON' : (error as Error).message;
    throw new StackOutputsError(`cannot read --stack-outputs ${path}: ${detail}`, { cause: error });
  }
  if (!isObject(json)) {
    throw new StackOutputsError(`--stack-outputs ${path} must hold a JSON object of outputs`);
  }
  const values = Object.values(json);
  if (values.length > 0 && values.every((value) => typeof value === 'string')) return json as StackOutputs;
  const stack = json[stackName];
  if (!isObject(stack)) {
    throw new StackOutputsError(
      `--stack-outputs ${path} has no outputs for stack ${stackName} (it has: ${Object.keys(json).join(', ') || 'nothing'})`,
    );
  }
  return Object.fromEntries(
    Object.entries(stack).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : [])),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
