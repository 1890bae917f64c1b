// Lambda refuses a function whose environment variables add up to more than 4 KB, and says so only in the
// middle of a deployment. The stack counts them at synth time instead. Values that hold CloudFormation
// tokens (ARNs, URLs, generated names) are not known yet, so they are counted through token-free stand-ins
// at least as long as anything CloudFormation can put there.
import { type CfnResource, Stack } from 'aws-cdk-lib';
import { DeploymentError } from './deploymentError.js';

/** Lambda's limit on the sum of the environment's keys and values, in bytes. */
export const LAMBDA_ENVIRONMENT_LIMIT_BYTES = 4096;

/**
 * Parts of an ARN or URL at least as long as any value they take, whatever partition and region the stack
 * lands in: partitions are at most 10 characters (`aws-us-gov`) and region codes 14 (`ap-southeast-7`)
 * today; 12 and 16 leave room for new ones.
 */
const LONGEST = {
  partition: 'p'.repeat(12),
  region: 'r'.repeat(16),
  account: '0'.repeat(12),
  urlSuffix: 'amazonaws.com.cn',
} as const;

/**
 * CloudFormation names a resource it names itself `<stack>-<logical id>-<random suffix>`, cut to what the
 * service allows; 16 characters are counted for the suffix (it is 12 or 13 in practice).
 */
export function generatedNameLength(resource: CfnResource, serviceMaximum: number): number {
  const stack = Stack.of(resource);
  const logicalId = String(stack.resolve(resource.logicalId));
  return Math.min(serviceMaximum, stack.stackName.length + 1 + logicalId.length + 1 + 16);
}

/** SQS queue names are at most 80 characters. */
export const SQS_QUEUE_NAME_MAXIMUM = 80;

export function queueArnStandIn(nameLength: number): string {
  return `arn:${LONGEST.partition}:sqs:${LONGEST.region}:${LONGEST.account}:${'q'.repeat(nameLength)}`;
}

export function queueUrlStandIn(nameLength: number): string {
  return `https://sqs.${LONGEST.region}.${LONGEST.urlSuffix}/${LONGEST.account}/${'q'.repeat(nameLength)}`;
}

export function topicArnStandIn(nameLength: number): string {
  return `arn:${LONGEST.partition}:sns:${LONGEST.region}:${LONGEST.account}:${'t'.repeat(nameLength)}`;
}

/** What Lambda counts: every key and value, in UTF-8 bytes. */
export function environmentBytes(variables: Readonly<Record<string, string>>): number {
  let bytes = 0;
  for (const [key, value] of Object.entries(variables)) {
    bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
  }
  return bytes;
}

/**
 * @param functionName names the function in the message
 * @param variables the environment as it will be at the largest, tokens replaced by their stand-ins
 * @throws DeploymentError naming the largest variables when the environment exceeds Lambda's limit
 */
export function assertEnvironmentFits(
  functionName: string,
  variables: Readonly<Record<string, string>>,
): void {
  const total = environmentBytes(variables);
  if (total <= LAMBDA_ENVIRONMENT_LIMIT_BYTES) return;
  const largest = Object.entries(variables)
    .map(([key, value]) => ({ key, bytes: Buffer.byteLength(key) + Buffer.byteLength(value) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map(({ key, bytes }) => `${key} ${bytes} B`)
    .join(', ');
  throw new DeploymentError(
    `${functionName}: its environment would take up to ${total} bytes, over Lambda's ${LAMBDA_ENVIRONMENT_LIMIT_BYTES}-byte limit (largest: ${largest}). ` +
      "Each Slack or webhook subscriber adds its queue ARN and DLQ URL to its delivery function's environment; split the subscribers across two deployments (-c stackName=… -c config=…).",
  );
}
