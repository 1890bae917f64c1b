// Deployments that can be repeated and retried: two stacks of different names in one account and region
// claim no physical name in common (secret names follow the stack's name by default, and the functions
// read the same prefix), and a first deployment that fails and rolls back leaves nothing behind that
// would make the retry fail on "already exists": what is kept on delete or replacement is not kept then.
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { MealOrderNotifierStack } from '../../infra/mealOrderNotifierStack.js';
import { cdkJsonContext } from './support/cdkJsonContext.js';
import {
  type CfnResource,
  exampleConfig,
  functionEnvironment,
  functionLogicalId,
  notifierApp,
  resourcesOfType,
} from './support/notifierApp.js';

/**
 * For each resource type the stack creates, the property that holds its physical name, which is unique in
 * an account and region (or in a schedule group); null for types with no name of their own (policies,
 * subscriptions, mappings: CloudFormation names them, or they are not named at all). A type missing here
 * fails the test, so a new kind of resource is classified when it is added.
 */
const PHYSICAL_NAME_PROPERTY: Record<string, string | null> = {
  'AWS::CloudWatch::Alarm': 'AlarmName',
  'AWS::CloudWatch::Dashboard': 'DashboardName',
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::IAM::Policy': null, // PolicyName is the name of an inline policy, within its role
  'AWS::IAM::Role': 'RoleName',
  'AWS::KMS::Alias': 'AliasName',
  'AWS::KMS::Key': null,
  'AWS::Lambda::EventInvokeConfig': null,
  'AWS::Lambda::EventSourceMapping': null,
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::Scheduler::Schedule': 'Name',
  'AWS::Scheduler::ScheduleGroup': 'Name',
  'AWS::SecretsManager::Secret': 'Name',
  'AWS::SNS::Subscription': null,
  'AWS::SNS::Topic': 'TopicName',
  'AWS::SNS::TopicPolicy': null,
  'AWS::SQS::Queue': 'QueueName',
  'AWS::SQS::QueuePolicy': null,
};

/** Every physical name the template sets explicitly, as `type name`. */
function explicitPhysicalNames(template: Template): string[] {
  const resources = template.toJSON().Resources as Record<string, CfnResource>;
  return Object.entries(resources).flatMap(([logicalId, resource]) => {
    const nameProperty = PHYSICAL_NAME_PROPERTY[resource.Type];
    if (nameProperty === undefined) throw new Error(`${logicalId}: classify ${resource.Type} in the test`);
    const name = nameProperty === null ? undefined : resource.Properties?.[nameProperty];
    return name === undefined ? [] : [`${resource.Type} ${JSON.stringify(name)}`];
  });
}

describe('two stacks in one account and region', () => {
  it('share no physical name: secrets, alarms, the alarm topic and the schedule group are named after the stack', () => {
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const config = exampleConfig();
    const productionStack = new MealOrderNotifierStack(app, 'MealOrderNotifier', { config });
    const stagingStack = new MealOrderNotifierStack(app, 'Staging', {
      config,
      alarmEmail: 'oncall@example.org',
    });
    const production = Template.fromStack(productionStack);
    const staging = Template.fromStack(stagingStack);
    const productionNames = explicitPhysicalNames(production);
    const stagingNames = explicitPhysicalNames(staging);
    // Not vacuous: the names that used to collide are there to compare.
    for (const type of [
      'AWS::SecretsManager::Secret',
      'AWS::CloudWatch::Alarm',
      'AWS::SNS::Topic',
      'AWS::Scheduler::ScheduleGroup',
    ]) {
      expect(stagingNames.filter((name) => name.startsWith(`${type} `)).length, type).toBeGreaterThan(0);
    }
    expect(stagingNames.filter((name) => productionNames.includes(name))).toEqual([]);
    expect(
      resourcesOfType(staging, 'AWS::SecretsManager::Secret').map(([, secret]) => secret.Properties?.Name),
    ).toEqual(['Staging/organization-tokens', 'Staging/subscriber-secrets']);
  });

  it("gives the functions the stack's secrets prefix, so they read the secrets it created", () => {
    const { template } = notifierApp(exampleConfig(), { stackName: 'Staging' });
    for (const service of ['poller', 'webhook-delivery', 'slack-delivery']) {
      expect(
        functionEnvironment(template, functionLogicalId(template, service)).SECRETS_PREFIX,
        service,
      ).toBe('Staging/');
    }
  });
});

describe('a first deployment that fails and rolls back', () => {
  const { template } = notifierApp();
  const resources = Object.entries(template.toJSON().Resources as Record<string, CfnResource>);

  it('deletes the table and the secrets it created, and keeps them on delete or replacement once created', () => {
    const kept = resources.filter(([, resource]) =>
      ['AWS::DynamoDB::Table', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup'].includes(resource.Type),
    );
    expect(kept.length).toBeGreaterThan(0);
    for (const [logicalId, resource] of kept) {
      expect(resource, logicalId).toMatchObject({
        DeletionPolicy: 'RetainExceptOnCreate',
        UpdateReplacePolicy: 'Retain',
      });
    }
  });

  it('leaves nothing at all: no resource is kept when its creation is rolled back', () => {
    for (const [logicalId, resource] of resources) {
      expect([undefined, 'Delete', 'RetainExceptOnCreate'], logicalId).toContain(resource.DeletionPolicy);
    }
  });

  it('can delete the table: deletion protection would make the rollback fail, so only RETAIN turns it on', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
    const strict = notifierApp(exampleConfig(), { props: { removalPolicy: RemovalPolicy.RETAIN } }).template;
    strict.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: { DeletionProtectionEnabled: true },
    });
  });
});
