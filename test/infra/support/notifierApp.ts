// Builds the notifier stack for a test: from infra/example.config.json (or a variant of it), without
// esbuild bundling unless the test is about the bundles, since the template is the same either way and
// bundling four functions costs seconds. Each test file synthesizes once per config and shares it.
import { readFileSync } from 'node:fs';
import { App, CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { EXAMPLE_CONFIG_PATH } from '../../../infra/deploymentSettings.js';
import {
  MealOrderNotifierStack,
  type MealOrderNotifierStackProps,
} from '../../../infra/mealOrderNotifierStack.js';
import { cdkJsonContext } from './cdkJsonContext.js';

/** The config file as written, as a fresh object each call so a test can vary it. */
export type WrittenConfig = {
  api: Record<string, unknown>;
  organizations: Record<string, unknown>[];
  subscribers: Record<string, unknown>[];
  smtp?: Record<string, unknown>;
  [key: string]: unknown;
};

export function exampleConfig(): WrittenConfig {
  return JSON.parse(readFileSync(EXAMPLE_CONFIG_PATH, 'utf8')) as WrittenConfig;
}

/** The example with `count` organizations like its first, each with its own id, name and token. */
export function exampleConfigWithOrganizations(count: number): WrittenConfig {
  const config = exampleConfig();
  const [north] = config.organizations;
  config.organizations = Array.from({ length: count }, (_, index) => ({
    ...north,
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `School ${index}`,
    token: { env: `SCHOOL_${index}_TOKEN` },
  })) as WrittenConfig['organizations'];
  return config;
}

/** The example with an e-mail digest too, so that the stack holds the digest function and its schedule. */
export function exampleConfigWithDigest(): WrittenConfig {
  const config = exampleConfig();
  config.subscribers.push({
    id: 'office-digest',
    type: 'email',
    to: ['office@north-school.example.org'],
    digest: { every: '1h', types: ['order.created', 'order.completed'] },
  });
  return config;
}

export interface NotifierAppOptions {
  /** Stack props beside the config. */
  readonly props?: Omit<Partial<MealOrderNotifierStackProps>, 'config'>;
  /** Run esbuild for the functions' assets, into `outdir`. @default false */
  readonly bundle?: boolean;
  readonly outdir?: string;
  /** @default 'MealOrderNotifier' */
  readonly stackName?: string;
}

export interface NotifierApp {
  readonly app: App;
  readonly stack: MealOrderNotifierStack;
  readonly template: Template;
}

export function notifierApp(
  config: unknown = exampleConfig(),
  options: NotifierAppOptions = {},
): NotifierApp {
  const app = new App({
    ...(options.outdir ? { outdir: options.outdir } : {}),
    // An empty list turns asset bundling off for every stack.
    context: { ...cdkJsonContext(), ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
  const stack = new MealOrderNotifierStack(app, options.stackName ?? 'MealOrderNotifier', {
    config,
    ...options.props,
  });
  return { app, stack, template: Template.fromStack(stack) };
}

export type CfnResource = { Type: string; Properties?: Record<string, unknown>; [key: string]: unknown };

/** The template's resources of one type, by logical id. */
export function resourcesOfType(template: Template, type: string): [string, CfnResource][] {
  const resources = template.toJSON().Resources as Record<string, CfnResource>;
  return Object.entries(resources).filter(([, resource]) => resource.Type === type);
}

export const ACCOUNT = '123456789012';
export const REGION = 'eu-west-1';

/**
 * A template value with its CloudFormation references replaced by values of the shape AWS would give
 * them (queue URLs and ARNs, topic ARNs, table names), so a function's environment can be fed to the
 * function's own parser.
 */
export function resolveLikeAws(value: unknown, template: Template): string {
  const resources = template.toJSON().Resources as Record<string, CfnResource>;
  const typeOf = (logicalId: string) => resources[logicalId]?.Type;
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) throw new Error(`cannot resolve ${JSON.stringify(value)}`);
  const intrinsic = value as Record<string, unknown>;
  if (typeof intrinsic.Ref === 'string') {
    const id = intrinsic.Ref;
    if (id === 'AWS::Region') return REGION;
    if (id === 'AWS::AccountId') return ACCOUNT;
    if (id === 'AWS::Partition') return 'aws';
    switch (typeOf(id)) {
      case 'AWS::SQS::Queue':
        return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/MealOrderNotifier-${id}-A1B2C3D4E5F6`;
      case 'AWS::SNS::Topic':
        return `arn:aws:sns:${REGION}:${ACCOUNT}:MealOrderNotifier-${id}-A1B2C3D4E5F6`;
      case 'AWS::DynamoDB::Table':
        return `MealOrderNotifier-${id}-A1B2C3D4E5F6`;
      default:
        return id;
    }
  }
  const getAtt = intrinsic['Fn::GetAtt'];
  if (Array.isArray(getAtt)) {
    const [id, attribute] = getAtt as [string, string];
    if (typeOf(id) === 'AWS::SQS::Queue' && attribute === 'Arn') {
      return `arn:aws:sqs:${REGION}:${ACCOUNT}:MealOrderNotifier-${id}-A1B2C3D4E5F6`;
    }
    return `arn:aws:service:${REGION}:${ACCOUNT}:${id}/${attribute}`;
  }
  const join = intrinsic['Fn::Join'];
  if (Array.isArray(join)) {
    const [separator, parts] = join as [string, unknown[]];
    return parts.map((part) => resolveLikeAws(part, template)).join(separator);
  }
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
}

/** A function's environment variables as Lambda would hand them to it. */
export function functionEnvironment(template: Template, logicalId: string): Record<string, string> {
  const resources = template.toJSON().Resources as Record<string, CfnResource>;
  const properties = resources[logicalId]?.Properties as
    | { Environment?: { Variables?: Record<string, unknown> } }
    | undefined;
  const variables = properties?.Environment?.Variables ?? {};
  return Object.fromEntries(
    Object.entries(variables).map(([key, value]) => [key, resolveLikeAws(value, template)]),
  );
}

/** The logical id of the one Lambda function whose POWERTOOLS_SERVICE_NAME is `serviceName`. */
export function functionLogicalId(template: Template, serviceName: string): string {
  const matches = resourcesOfType(template, 'AWS::Lambda::Function').filter(([, resource]) => {
    const variables = (
      resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined
    )?.Variables;
    return variables?.POWERTOOLS_SERVICE_NAME === serviceName;
  });
  if (matches.length !== 1) throw new Error(`${matches.length} functions of service ${serviceName}`);
  return (matches[0] as [string, CfnResource])[0];
}

/** The logical id of the CloudFormation resource under the construct at `path` (ids below the stack). */
export function logicalIdAt(stack: Stack, ...path: string[]): string {
  let construct: IConstruct = stack;
  for (const id of path) construct = construct.node.findChild(id);
  const resource = construct instanceof CfnElement ? construct : construct.node.defaultChild;
  if (!(resource instanceof CfnElement)) throw new Error(`no CloudFormation resource at ${path.join('/')}`);
  return stack.resolve(resource.logicalId) as string;
}

/** A property of a resource's Properties (or any object), failing the test when it is missing. */
export function property<T>(properties: Record<string, unknown> | undefined, name: string): T {
  const value = properties?.[name];
  if (value === undefined) throw new Error(`no ${name} in ${JSON.stringify(properties)?.slice(0, 200)}`);
  return value as T;
}
