// A synthesized notifier stack's functions as its template wires them, made runnable on loopback: each
// function's bundle (from the cloud assembly), timeout and environment, with every CloudFormation
// reference replaced by a local stand-in (the DynamoDB Local table and its stream, queues served by the
// fake SQS), and the schedules, event source mappings and SNS subscriptions that connect them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { type CfnResource, resourcesOfType } from '../infra/support/notifierApp.js';
import { type BundledInvocation, type BundledRun, invokeBundle } from './bundledHandler.js';
import type { FilterPolicyDocument } from './snsPolicyEvaluator.js';

export const ACCOUNT = '123456789012';
export const REGION = 'eu-west-1';

export interface LocalStandIns {
  /** The DynamoDB Local table that stands for the stack's one table. */
  tableName: string;
  /** Its stream's ARN, as DynamoDB Local names it. */
  streamArn: string;
  /** A queue URL served by the fake SQS, for a queue's logical id. */
  queueUrl(logicalId: string): string;
}

export interface LocalFunction {
  logicalId: string;
  /** The bundle's entry file in the cloud assembly. */
  bundle: string;
  /** The export `Handler` names. */
  exportName: string;
  timeoutSeconds: number;
  memorySize: number;
  /** The template's variables, resolved to the stand-ins. */
  environment: Record<string, string>;
}

/**
 * What Lambda gives a function: the template's variables, its own, and the loopback endpoints. `scratch` is a
 * directory the run may name files in: no profile of this machine's may point the SDK elsewhere.
 */
export function lambdaEnvironment(
  fn: LocalFunction,
  loopback: { scratch: string; dynamoEndpoint: string; endpointEnvironment: Record<string, string> },
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    ...fn.environment,
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SESSION_TOKEN: 'local',
    AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
    TZ: ':UTC',
    AWS_CONFIG_FILE: join(loopback.scratch, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(loopback.scratch, 'no-aws-credentials'),
    AWS_ENDPOINT_URL_DYNAMODB: loopback.dynamoEndpoint,
    ...loopback.endpointEnvironment,
  };
}

/** Runs one invocation of the function's bundle as the template wires it: its handler, name and timeout. */
export function invokeLocalFunction(
  fn: LocalFunction,
  invocation: Pick<BundledInvocation, 'env' | 'event' | 'node' | 'awsRequestId'>,
): Promise<BundledRun> {
  return invokeBundle({
    bundle: fn.bundle,
    exportName: fn.exportName,
    functionName: fn.logicalId,
    timeoutSeconds: fn.timeoutSeconds,
    ...invocation,
  });
}

export interface EventSourceMapping {
  functionId: string;
  sourceArn: string;
  batchSize: number;
  filterCriteria: { Filters?: { Pattern: string }[] } | undefined;
}

export interface SqsSubscription {
  topicArn: string;
  queueArn: string;
  rawMessageDelivery: boolean;
  /** Undefined: every message. */
  filterPolicy: FilterPolicyDocument | undefined;
}

export interface PollSchedule {
  functionId: string;
  /** The invocation's event, the schedule's `Input`. */
  input: unknown;
}

export class LocalWiring {
  readonly #resources: Record<string, CfnResource>;

  constructor(
    private readonly template: Template,
    private readonly assemblyDir: string,
    private readonly standIns: LocalStandIns,
  ) {
    this.#resources = template.toJSON().Resources as Record<string, CfnResource>;
  }

  queueArn(logicalId: string): string {
    return `arn:aws:sqs:${REGION}:${ACCOUNT}:${logicalId}`;
  }

  /** The ARN of the template's queue that `queueUrl` stands for. */
  queueArnOfUrl(queueUrl: string): string {
    const [logicalId] =
      resourcesOfType(this.template, 'AWS::SQS::Queue').find(
        ([id]) => this.standIns.queueUrl(id) === queueUrl,
      ) ?? [];
    if (logicalId === undefined) throw new Error(`no queue of the template has the URL ${queueUrl}`);
    return this.queueArn(logicalId);
  }

  /** A template value with its references resolved; a reference without a stand-in fails the test. */
  resolve(value: unknown): string {
    if (typeof value === 'string') return value;
    if (typeof value !== 'object' || value === null)
      throw new Error(`cannot resolve ${JSON.stringify(value)}`);
    const intrinsic = value as Record<string, unknown>;
    if (typeof intrinsic.Ref === 'string') return this.#ref(intrinsic.Ref);
    const getAtt = intrinsic['Fn::GetAtt'];
    if (Array.isArray(getAtt)) return this.#getAtt(getAtt[0] as string, getAtt[1] as string);
    const join = intrinsic['Fn::Join'];
    if (Array.isArray(join)) {
      const [separator, parts] = join as [string, unknown[]];
      return parts.map((part) => this.resolve(part)).join(separator);
    }
    throw new Error(`no local stand-in for ${JSON.stringify(value)}`);
  }

  function(logicalId: string): LocalFunction {
    const properties = this.#properties(logicalId, 'AWS::Lambda::Function');
    const code = properties.Code as { S3Key: string };
    const [file, exportName] = String(properties.Handler).split('.') as [string, string];
    const assetDir = join(this.assemblyDir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
    const bundle = ['.mjs', '.js', '.cjs']
      .map((extension) => join(assetDir, `${file}${extension}`))
      .find(existsSync);
    if (bundle === undefined) throw new Error(`no bundle ${file}.* in ${assetDir}; was the stack bundled?`);
    const variables = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables;
    return {
      logicalId,
      bundle,
      exportName,
      timeoutSeconds: Number(properties.Timeout ?? 3),
      memorySize: Number(properties.MemorySize ?? 128),
      environment: Object.fromEntries(
        Object.entries(variables ?? {}).map(([key, value]) => [key, this.resolve(value)]),
      ),
    };
  }

  eventSourceMappings(): EventSourceMapping[] {
    return resourcesOfType(this.template, 'AWS::Lambda::EventSourceMapping').map(([, resource]) => {
      const properties = resource.Properties ?? {};
      return {
        functionId: refOf(properties.FunctionName),
        sourceArn: this.resolve(properties.EventSourceArn),
        // Lambda's defaults: 100 for streams, 10 for SQS.
        batchSize: Number(properties.BatchSize ?? 10),
        filterCriteria: properties.FilterCriteria as EventSourceMapping['filterCriteria'],
      };
    });
  }

  /** The one mapping that reads `sourceArn`. */
  mappingOf(sourceArn: string): EventSourceMapping {
    const mappings = this.eventSourceMappings().filter((mapping) => mapping.sourceArn === sourceArn);
    if (mappings.length !== 1) throw new Error(`${mappings.length} event source mappings read ${sourceArn}`);
    return mappings[0] as EventSourceMapping;
  }

  sqsSubscriptions(): SqsSubscription[] {
    return resourcesOfType(this.template, 'AWS::SNS::Subscription')
      .filter(([, resource]) => resource.Properties?.Protocol === 'sqs')
      .map(([, resource]) => {
        const properties = resource.Properties ?? {};
        if (
          properties.FilterPolicyScope !== undefined &&
          properties.FilterPolicyScope !== 'MessageAttributes'
        ) {
          throw new Error(
            `filter policy scope ${String(properties.FilterPolicyScope)} is not evaluated here`,
          );
        }
        return {
          topicArn: this.resolve(properties.TopicArn),
          queueArn: this.resolve(properties.Endpoint),
          rawMessageDelivery:
            properties.RawMessageDelivery === true || properties.RawMessageDelivery === 'true',
          filterPolicy: properties.FilterPolicy as FilterPolicyDocument | undefined,
        };
      });
  }

  schedules(): PollSchedule[] {
    return resourcesOfType(this.template, 'AWS::Scheduler::Schedule').map(([, resource]) => {
      const target = resource.Properties?.Target as { Arn: unknown; Input: string };
      const [functionId, attribute] = (target.Arn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      if (attribute !== 'Arn') throw new Error(`a schedule targets ${functionId}.${attribute}`);
      return { functionId, input: JSON.parse(target.Input) as unknown };
    });
  }

  /** The names of the secrets the stack creates. */
  secretNames(): string[] {
    return resourcesOfType(this.template, 'AWS::SecretsManager::Secret').map(([, resource]) =>
      this.resolve(resource.Properties?.Name),
    );
  }

  #properties(logicalId: string, type: string): Record<string, unknown> {
    const resource = this.#resources[logicalId];
    if (resource?.Type !== type) throw new Error(`${logicalId} is not a ${type}`);
    return resource.Properties ?? {};
  }

  #ref(logicalId: string): string {
    if (logicalId === 'AWS::Region') return REGION;
    if (logicalId === 'AWS::AccountId') return ACCOUNT;
    if (logicalId === 'AWS::Partition') return 'aws';
    switch (this.#resources[logicalId]?.Type) {
      case 'AWS::SQS::Queue':
        return this.standIns.queueUrl(logicalId);
      case 'AWS::SNS::Topic':
        return `arn:aws:sns:${REGION}:${ACCOUNT}:${logicalId}`;
      case 'AWS::DynamoDB::Table':
        return this.standIns.tableName;
      case 'AWS::Lambda::Function':
        return logicalId;
      default:
        throw new Error(`no local stand-in for a Ref to ${logicalId}`);
    }
  }

  #getAtt(logicalId: string, attribute: string): string {
    const type = this.#resources[logicalId]?.Type;
    if (type === 'AWS::SQS::Queue' && attribute === 'Arn') return this.queueArn(logicalId);
    if (type === 'AWS::DynamoDB::Table' && attribute === 'StreamArn') return this.standIns.streamArn;
    if (type === 'AWS::Lambda::Function' && attribute === 'Arn') {
      return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${logicalId}`;
    }
    throw new Error(`no local stand-in for ${logicalId}.${attribute}`);
  }
}

function refOf(value: unknown): string {
  const ref = (value as { Ref?: unknown } | undefined)?.Ref;
  if (typeof ref !== 'string') throw new Error(`expected a Ref, got ${JSON.stringify(value)}`);
  return ref;
}
