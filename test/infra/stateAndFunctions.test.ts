// The state table as the DynamoDB adapter expects it, and the four functions as Lambda runs them:
// Node.js 24 on ARM64, ES module bundles with source maps, Powertools settings, log retention, and the
// timeouts and memory each one needs.
import { RemovalPolicy } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { POLLER_MEMORY_MB, POLLER_TIMEOUT } from '../../infra/pollerFunction.js';
import { AWS_LEASE_TERMS } from '../../shared/contracts/awsPollSettings.js';
import { DELIVERY_FUNCTION_TIMEOUT_SECONDS } from '../../shared/contracts/deliveryQueueContract.js';
import { stateTableDefinition } from '../../shared/contracts/stateTableDefinition.js';
import { exampleConfig, notifierApp, property, resourcesOfType } from './support/notifierApp.js';

const { template } = notifierApp();

describe('state table', () => {
  it('has the keys, on-demand billing, PITR, the TTL attribute and a NEW_IMAGE stream of stateTableDefinition', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: stateTableDefinition.keySchema,
      AttributeDefinitions: stateTableDefinition.attributeDefinitions,
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('is kept by cdk destroy, unless the deployment asks for removal', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
    });
    const trial = notifierApp(exampleConfig(), { props: { removalPolicy: RemovalPolicy.DESTROY } }).template;
    trial.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
    });
  });
});

describe('functions', () => {
  const functions = resourcesOfType(template, 'AWS::Lambda::Function');
  const byService = (service: string) =>
    functions.find(
      ([, resource]) =>
        property<{ Variables: Record<string, unknown> }>(resource.Properties, 'Environment').Variables
          .POWERTOOLS_SERVICE_NAME === service,
    )?.[1].Properties;

  it('creates the poller, the watchdog, the publisher and one delivery function per subscriber type in the config', () => {
    expect(functions).toHaveLength(5);
    for (const service of ['poller', 'watchdog', 'publisher', 'webhook-delivery', 'slack-delivery']) {
      expect(byService(service), service).toBeDefined();
    }
  });

  it('runs every function on nodejs24.x, arm64, as an ES module bundle with source maps and Powertools settings', () => {
    for (const [, resource] of functions) {
      expect(resource.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Environment: {
          Variables: {
            NODE_OPTIONS: '--enable-source-maps',
            POWERTOOLS_METRICS_NAMESPACE: 'MealOrderNotifier',
            POWERTOOLS_SERVICE_NAME: expect.any(String),
          },
        },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
    }
  });

  it('gives the poller 256 MB, sized from the bench, and a timeout exactly as long as its lease', () => {
    expect(byService('poller')).toMatchObject({ MemorySize: 256, Timeout: POLLER_TIMEOUT.toSeconds() });
    expect(POLLER_MEMORY_MB).toBe(256);
    expect(POLLER_TIMEOUT.toMilliseconds()).toBe(AWS_LEASE_TERMS.ttlMs);
    expect(AWS_LEASE_TERMS.heldFor).toBe('cycle');
  });

  it('gives the poller the memory the deployment asks for (-c pollerMemory), for large organizations', () => {
    const large = notifierApp(exampleConfig(), { props: { pollerMemoryMb: 768 } }).template;
    const [, poller] =
      resourcesOfType(large, 'AWS::Lambda::Function').find(
        ([, resource]) =>
          property<{ Variables: Record<string, unknown> }>(resource.Properties, 'Environment').Variables
            .POWERTOOLS_SERVICE_NAME === 'poller',
      ) ?? [];
    expect(poller?.Properties).toMatchObject({ MemorySize: 768 });
  });

  it('gives the delivery functions the timeout deliveryQueueContract.ts sizes them for', () => {
    for (const service of ['webhook-delivery', 'slack-delivery']) {
      expect(byService(service)).toMatchObject({
        MemorySize: 256,
        Timeout: DELIVERY_FUNCTION_TIMEOUT_SECONDS,
      });
    }
  });

  it('writes each function to its own log group, kept for a month', () => {
    const logGroups = resourcesOfType(template, 'AWS::Logs::LogGroup');
    expect(logGroups).toHaveLength(5);
    for (const [, logGroup] of logGroups) expect(logGroup.Properties).toMatchObject({ RetentionInDays: 30 });
    const referenced = functions.map(
      ([, resource]) =>
        property<{ LogGroup: { Ref: string } }>(resource.Properties, 'LoggingConfig').LogGroup.Ref,
    );
    expect(new Set(referenced)).toEqual(new Set(logGroups.map(([id]) => id)));
  });

  it('creates no delivery function for a subscriber type the config does not have', () => {
    const config = exampleConfig();
    config.subscribers = config.subscribers.filter((subscriber) => subscriber.type !== 'slack');
    const { template: webhookOnly } = notifierApp(config);
    const services = resourcesOfType(webhookOnly, 'AWS::Lambda::Function').map(
      ([, resource]) =>
        property<{ Variables: Record<string, unknown> }>(resource.Properties, 'Environment').Variables
          .POWERTOOLS_SERVICE_NAME,
    );
    expect(services.sort()).toEqual(['poller', 'publisher', 'watchdog', 'webhook-delivery']);
  });
});
