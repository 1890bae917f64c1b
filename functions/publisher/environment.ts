// The publisher's environment, set by the CDK stack: `TOPIC_ARN`, the SNS topic every event is published
// to. The stream record carries the whole event; the config (its organizations) comes from the bundle
// (bundledConfig.ts) unless NOTIFIER_CONFIG is set, for one thing only: each organization's highlight words,
// which flag notes in the e-mail body the publisher composes. It needs no secrets.
import * as z from 'zod';
import type { Config } from '../../shared/config/configSchema.js';
import { functionConfig, withBundledConfig } from '../../shared/contracts/bundledConfig.js';
import type { PublisherVariables } from '../../shared/contracts/functionEnvironments.js';
import { type EnvironmentShape, parseLambdaEnvironment } from '../shared/lambdaEnvironment.js';
import { SnsTopicArnSchema } from '../shared/snsTopicArn.js';

const PublisherEnvironmentSchema = z.object({
  TOPIC_ARN: SnsTopicArnSchema,
  NOTIFIER_CONFIG: z.string().min(1),
} satisfies EnvironmentShape<PublisherVariables, 'NOTIFIER_CONFIG'>);

export interface PublisherEnvironment {
  topicArn: string;
  config: Config;
}

export function parsePublisherEnvironment(env: NodeJS.ProcessEnv): PublisherEnvironment {
  const parsed = parseLambdaEnvironment('publisher', PublisherEnvironmentSchema, withBundledConfig(env));
  return { topicArn: parsed.TOPIC_ARN, config: functionConfig(env) };
}
