// IAM refuses a role whose inline policies add up to more than 10,240 characters (whitespace aside), and
// a customer managed policy over 6,144; CloudFormation says so only halfway through a deployment. The
// roles grow little with the config: the secrets are shards of some 200 values each (one ARN per shard,
// not per subscriber's secret), the queues one per channel. The stack still measures every role's policies
// at synth time and refuses one that cannot fit, naming the role, the size and the limit.
//
// The size is the deployed one. A policy holds ARNs CloudFormation fills in at deploy time, each longer
// than the reference that stands for it in the template (`{"Ref":"Secrets…"}` becomes
// `arn:aws:secretsmanager:…:secret:<name>-AbCdEf`), so each reference is measured through a stand-in at
// least as long as the ARN it becomes (lambdaEnvironmentSize.ts's rule). It runs as the synth validates the
// tree, after CDK's own aspect has moved what did not fit by its estimate into managed policies.
import { CfnResource, type Stack } from 'aws-cdk-lib';
import { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { CfnManagedPolicy, CfnPolicy, CfnRole } from 'aws-cdk-lib/aws-iam';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnLogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnTopic } from 'aws-cdk-lib/aws-sns';
import { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { DeploymentError } from './deploymentError.js';
import { generatedNameLength, LONGEST } from './lambdaEnvironmentSize.js';

/**
 * IAM's limits: in characters without whitespace, all of a role's inline policies and one managed policy;
 * and the managed policies attached to one role (the default quota).
 */
export const IAM_POLICY_LIMITS = { inlinePerRole: 10_240, managedPolicy: 6_144, managedPerRole: 10 } as const;

/** Refuses, at synth, a role of `stack` whose policies would not fit IAM's limits once deployed. */
export function checkRolePolicySizes(stack: Stack): void {
  // A validation, not an aspect: validations run once every aspect is done, CDK's splitting of large
  // policies included, which an aspect on the stack would run before. It throws rather than returns the
  // message: a DeploymentError is one line to the operator (app.ts), CDK's validation report is not.
  stack.node.addValidation({
    validate: () => {
      assertRolePoliciesFit(stack);
      return [];
    },
  });
}

/** The deployed size of each role's inline policies together, and of each managed policy, by construct path. */
export interface PolicySizes {
  inlineByRole: Map<string, number>;
  managed: Map<string, number>;
  /** How many managed policies each role has attached, by the role's construct path. */
  managedCountByRole: Map<string, number>;
}

export function measureRolePolicies(stack: Stack): PolicySizes {
  const constructs = stack.node.findAll();
  const resources = resourcesByLogicalId(stack);
  const measure = (document: unknown) => deployedLength(stack.resolve(document), stack, resources);
  const pathOf = (logicalId: string) => resources.get(logicalId)?.node.path ?? logicalId;
  const sizes: PolicySizes = { inlineByRole: new Map(), managed: new Map(), managedCountByRole: new Map() };
  const attach = (logicalId: string, count: number) => {
    const path = pathOf(logicalId);
    sizes.managedCountByRole.set(path, (sizes.managedCountByRole.get(path) ?? 0) + count);
  };
  const add = (logicalId: string, size: number) => {
    const path = pathOf(logicalId);
    sizes.inlineByRole.set(path, (sizes.inlineByRole.get(path) ?? 0) + size);
  };
  for (const construct of constructs) {
    if (construct instanceof CfnRole) {
      const policies = stack.resolve(construct.policies) as Array<{ policyDocument?: unknown }> | undefined;
      const logicalId = String(stack.resolve(construct.logicalId));
      for (const policy of policies ?? []) add(logicalId, measure(policy.policyDocument));
      attach(logicalId, ((stack.resolve(construct.managedPolicyArns) as unknown[] | undefined) ?? []).length);
    }
    if (construct instanceof CfnPolicy) {
      // An AWS::IAM::Policy is put on each of its roles as an inline policy of that role.
      const size = measure(construct.policyDocument);
      for (const role of (stack.resolve(construct.roles) as unknown[] | undefined) ?? [])
        add(refOf(role), size);
    }
    if (construct instanceof CfnManagedPolicy) {
      sizes.managed.set(construct.node.path, measure(construct.policyDocument));
      for (const role of (stack.resolve(construct.roles) as unknown[] | undefined) ?? [])
        attach(refOf(role), 1);
    }
  }
  return sizes;
}

/** The stack's CloudFormation resources by logical id: what references in a policy name. */
export function resourcesByLogicalId(stack: Stack): Map<string, CfnResource> {
  return new Map(
    stack.node
      .findAll()
      .filter((construct): construct is CfnResource => construct instanceof CfnResource)
      .map((resource) => [String(stack.resolve(resource.logicalId)), resource]),
  );
}

/** @throws DeploymentError naming the first role (or managed policy) over a limit, its size or count and the limit */
export function assertRolePoliciesFit(stack: Stack): void {
  const { inlineByRole, managed, managedCountByRole } = measureRolePolicies(stack);
  for (const [role, size] of inlineByRole) {
    if (size <= IAM_POLICY_LIMITS.inlinePerRole) continue;
    throw new DeploymentError(
      `the role ${role} would hold ${size} characters of inline policy, over IAM's limit of ${IAM_POLICY_LIMITS.inlinePerRole} on a role's inline policies: ${SPLIT_ADVICE}`,
    );
  }
  for (const [policy, size] of managed) {
    if (size <= IAM_POLICY_LIMITS.managedPolicy) continue;
    throw new DeploymentError(
      `the managed policy ${policy} would hold ${size} characters, over IAM's limit of ${IAM_POLICY_LIMITS.managedPolicy} on a managed policy: ${SPLIT_ADVICE}`,
    );
  }
  for (const [role, count] of managedCountByRole) {
    if (count <= IAM_POLICY_LIMITS.managedPerRole) continue;
    throw new DeploymentError(
      `the role ${role} would have ${count} managed policies attached, over IAM's default limit of ${IAM_POLICY_LIMITS.managedPerRole} on a role: ${SPLIT_ADVICE}`,
    );
  }
}

const SPLIT_ADVICE =
  'each secrets shard (one per 200 token or subscriber secret names) adds its ARN; split the organizations or the subscribers across two configs, each deployed under its own -c stackName';

/**
 * The characters IAM counts in `document` once deployed: its JSON without whitespace, each CloudFormation
 * reference replaced by a stand-in at least as long as what it resolves to.
 */
export function deployedLength(
  document: unknown,
  stack: Stack,
  resources: ReadonlyMap<string, CfnResource>,
): number {
  return JSON.stringify(standIns(document, stack, resources)).length;
}

function standIns(value: unknown, stack: Stack, resources: ReadonlyMap<string, CfnResource>): unknown {
  if (Array.isArray(value)) return value.map((item) => standIns(item, stack, resources));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  if (isIntrinsic(object)) return standInText(object, stack, resources);
  return Object.fromEntries(
    Object.entries(object).map(([key, item]) => [key, standIns(item, stack, resources)]),
  );
}

function isIntrinsic(object: Record<string, unknown>): boolean {
  const keys = Object.keys(object);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0]?.startsWith('Fn::') === true);
}

/** A string at least as long as what the intrinsic `value` resolves to at deploy time. */
function standInText(value: unknown, stack: Stack, resources: ReadonlyMap<string, CfnResource>): string {
  if (typeof value === 'string') return value;
  const object = (value ?? {}) as Record<string, unknown>;
  if (typeof object.Ref === 'string') return refStandIn(object.Ref, stack, resources);
  const getAtt = object['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return attributeStandIn(String(getAtt[0]), String(getAtt[1]), stack, resources);
  const join = object['Fn::Join'];
  if (Array.isArray(join)) {
    const [separator, parts] = join as [string, unknown[]];
    return parts.map((part) => standInText(part, stack, resources)).join(separator);
  }
  // A bug in the stack, not the config: a policy took a form this check cannot bound yet.
  throw new Error(`the IAM policy size check has no stand-in for ${JSON.stringify(value)}`);
}

const PSEUDO: Record<string, (stack: Stack) => string> = {
  'AWS::Partition': () => LONGEST.partition,
  'AWS::Region': () => LONGEST.region,
  'AWS::AccountId': () => LONGEST.account,
  'AWS::URLSuffix': () => LONGEST.urlSuffix,
  'AWS::StackName': (stack) => stack.stackName,
  'AWS::NoValue': () => '',
};

function refStandIn(logicalId: string, stack: Stack, resources: ReadonlyMap<string, CfnResource>): string {
  const pseudo = PSEUDO[logicalId];
  if (pseudo) return pseudo(stack);
  const resource = resources.get(logicalId);
  // What a Ref gives: the ARN for topics and secrets, a queue's URL, and the name of the rest.
  if (resource instanceof CfnTopic || resource instanceof CfnSecret) {
    return attributeStandIn(logicalId, 'Arn', stack, resources);
  }
  if (resource instanceof CfnQueue) {
    const queueName = attributeStandIn(logicalId, 'QueueName', stack, resources);
    return `https://sqs.${LONGEST.region}.${LONGEST.urlSuffix}/${LONGEST.account}/${queueName}`;
  }
  return attributeStandIn(logicalId, 'Name', stack, resources);
}

/** Service limits on names CloudFormation generates when the template gives none. */
const NAME_MAXIMUM = {
  queue: 80,
  topic: 256,
  secret: 512,
  table: 255,
  function: 64,
  logGroup: 512,
  role: 64,
} as const;

function attributeStandIn(
  logicalId: string,
  attribute: string,
  stack: Stack,
  resources: ReadonlyMap<string, CfnResource>,
): string {
  const resource = resources.get(logicalId);
  const name = (given: unknown, maximum: number): string => {
    const resolved: unknown = stack.resolve(given);
    return resolved === undefined
      ? 'n'.repeat(generatedNameLength(resource as CfnResource, maximum))
      : standInText(resolved, stack, resources);
  };
  const arn = (service: string, resourcePart: string, region = LONGEST.region) =>
    `arn:${LONGEST.partition}:${service}:${region}:${LONGEST.account}:${resourcePart}`;
  if (resource instanceof CfnQueue) {
    const queueName = name(resource.queueName, NAME_MAXIMUM.queue);
    if (attribute === 'Arn') return arn('sqs', queueName);
    if (attribute === 'QueueName' || attribute === 'Name') return queueName;
  }
  if (resource instanceof CfnTopic) {
    const topicName = name(resource.topicName, NAME_MAXIMUM.topic);
    if (attribute === 'Arn' || attribute === 'TopicArn') return arn('sns', topicName);
    if (attribute === 'TopicName') return topicName;
  }
  if (resource instanceof CfnSecret && attribute === 'Arn') {
    // Secrets Manager appends a dash and six random characters to the name.
    return arn('secretsmanager', `secret:${name(resource.name, NAME_MAXIMUM.secret)}-XXXXXX`);
  }
  if (resource instanceof CfnTable) {
    const tableArn = arn('dynamodb', `table/${name(resource.tableName, NAME_MAXIMUM.table)}`);
    if (attribute === 'Arn') return tableArn;
    // The stream's label is a timestamp such as 2026-11-27T04:40:00.123.
    if (attribute === 'StreamArn') return `${tableArn}/stream/${'s'.repeat(23)}`;
  }
  if (resource instanceof CfnFunction && attribute === 'Arn') {
    return arn('lambda', `function:${name(resource.functionName, NAME_MAXIMUM.function)}`);
  }
  if (resource instanceof CfnLogGroup && attribute === 'Arn') {
    return arn('logs', `log-group:${name(resource.logGroupName, NAME_MAXIMUM.logGroup)}:*`);
  }
  if (resource instanceof CfnRole && attribute === 'Arn') {
    return arn('iam', `role/${name(resource.roleName, NAME_MAXIMUM.role)}`, '');
  }
  if (resource?.cfnResourceType === 'AWS::KMS::Key' && attribute === 'Arn') {
    return arn('kms', `key/${'k'.repeat(36)}`);
  }
  throw new Error(
    `the IAM policy size check has no stand-in for ${resource?.cfnResourceType ?? logicalId}.${attribute}`,
  );
}

function refOf(value: unknown): string {
  const ref = (value as { Ref?: unknown } | undefined)?.Ref;
  if (typeof ref !== 'string')
    throw new Error(`a policy names a role as ${JSON.stringify(value)}, not a Ref`);
  return ref;
}
