// Lambda's 4 KB limit on a function's environment, checked at synth time: values holding CloudFormation
// tokens are counted at the longest AWS could make them, and an environment that could exceed it fails the
// synth naming the function and its largest variables, instead of failing the deployment half-way. The
// config is compiled into the bundles, so the number of organizations is not what runs into it.
import { describe, expect, it } from 'vitest';
import { DeploymentError } from '../../infra/deploymentError.js';
import {
  assertEnvironmentFits,
  environmentBytes,
  LAMBDA_ENVIRONMENT_LIMIT_BYTES,
  queueArnStandIn,
  queueUrlStandIn,
  SQS_QUEUE_NAME_MAXIMUM,
} from '../../infra/lambdaEnvironmentSize.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { exampleConfig, functionEnvironment, functionLogicalId, notifierApp } from './support/notifierApp.js';

/** One synthesis of a 100-organization stack: 100 schedules and alarms. */
const ONE_SYNTH = timeoutFor({ synths: 1 });

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('environmentBytes', () => {
  it('counts every key and value in UTF-8 bytes', () => {
    expect(environmentBytes({ A: 'bc', D: 'é' })).toBe(1 + 2 + 1 + 2);
  });
});

describe('stand-ins for token values', () => {
  it('are at least as long as any real queue ARN or URL with a name of that length', () => {
    const name = 'q'.repeat(SQS_QUEUE_NAME_MAXIMUM);
    const longestArn = `arn:aws-us-gov:sqs:ap-southeast-7:123456789012:${name}`;
    const longestUrl = `https://sqs.ap-southeast-7.amazonaws.com.cn/123456789012/${name}`;
    expect(queueArnStandIn(SQS_QUEUE_NAME_MAXIMUM).length).toBeGreaterThanOrEqual(longestArn.length);
    expect(queueUrlStandIn(SQS_QUEUE_NAME_MAXIMUM).length).toBeGreaterThanOrEqual(longestUrl.length);
  });
});

describe('assertEnvironmentFits', () => {
  it('lets an environment of exactly 4 KB through and refuses one byte more, naming the largest variables', () => {
    const exactly = { CONFIG: 'x'.repeat(LAMBDA_ENVIRONMENT_LIMIT_BYTES - 'CONFIG'.length) };
    expect(() => assertEnvironmentFits('poller', exactly)).not.toThrow();
    expect(() => assertEnvironmentFits('poller', { ...exactly, B: '' })).toThrow(DeploymentError);
    expect(() => assertEnvironmentFits('poller', { ...exactly, B: '' })).toThrow(
      "poller: its environment would take up to 4097 bytes, over Lambda's 4096-byte limit (largest: CONFIG 4096 B, B 1 B)",
    );
  });
});

describe('the stack', () => {
  it('fits the example config with room to spare', () => {
    expect(() => notifierApp()).not.toThrow();
  });

  it('deploys a config with many organizations, since the config is compiled into the bundles', {
    timeout: ONE_SYNTH,
  }, () => {
    const config = exampleConfig();
    const [north] = config.organizations;
    config.organizations = Array.from({ length: 100 }, (_, index) => ({
      ...north,
      id: uuid(index),
      name: `School number ${index}`,
      token: { env: `SCHOOL_${index}_TOKEN` },
    }));
    const { template } = notifierApp(config);
    // One watchdog schedule for all of them.
    template.resourceCountIs('AWS::Scheduler::Schedule', 1);
  });

  it("keeps nothing per subscriber in a delivery function's environment: 200 webhook subscribers fit as 1 does", {
    timeout: timeoutFor({ synths: 2 }),
  }, () => {
    const config = exampleConfig();
    for (let index = 0; index < 200; index += 1) {
      config.subscribers.push({
        id: `partner-${index}`,
        type: 'webhook',
        url: `https://partner-${index}.example.org/hooks`,
        // One secret for them all: each secret is an output of its own (the 200-output limit, not the 4 KB one).
        secret: { env: 'PARTNERS_SECRET' },
      });
    }
    const variablesOf = (template: ReturnType<typeof notifierApp>['template']) =>
      Object.keys(functionEnvironment(template, functionLogicalId(template, 'webhook-delivery'))).sort();
    const one = variablesOf(notifierApp().template);
    const { template: manyTemplate } = notifierApp(config);
    const many = functionEnvironment(manyTemplate, functionLogicalId(manyTemplate, 'webhook-delivery'));
    expect(Object.keys(many).sort()).toEqual(one);
    expect(JSON.stringify(many)).not.toContain('partner');
  });
});
