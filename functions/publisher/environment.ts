// The publisher's environment, set by the CDK stack: `TOPIC_ARN`, the SNS topic every event is published
// to, and `CATCH_UP_AFTER_SECONDS`, the config's catch-up thresholds, for each event's `audience` attribute.
// The stream record carries the whole event (and when its change happened); the config (its organizations)
// comes from the bundle (bundledConfig.ts) unless NOTIFIER_CONFIG is set, for one thing only: each
// organization's highlight words, which flag notes in the e-mail body the publisher composes. It needs no
// secrets.
import * as z from 'zod';
import type { Config } from '../../shared/config/configSchema.js';
import { functionConfig, withBundledConfig } from '../../shared/contracts/bundledConfig.js';
import type { PublisherVariables } from '../../shared/contracts/functionEnvironments.js';
import { CatchUpAfterSecondsSchema } from '../shared/catchUpAfterSeconds.js';
import { type EnvironmentShape, parseLambdaEnvironment } from '../shared/lambdaEnvironment.js';
import { SnsTopicArnSchema } from '../shared/snsTopicArn.js';

const PublisherEnvironmentSchema = z.object({
  TOPIC_ARN: SnsTopicArnSchema,
  CATCH_UP_AFTER_SECONDS: CatchUpAfterSecondsSchema,
  NOTIFIER_CONFIG: z.string().min(1),
} satisfies EnvironmentShape<PublisherVariables, 'NOTIFIER_CONFIG'>);

export interface PublisherEnvironment {
  topicArn: string;
  /** The config's catch-up thresholds, in seconds. */
  catchUpAfterSeconds: number[];
  config: Config;
}

export function parsePublisherEnvironment(env: NodeJS.ProcessEnv): PublisherEnvironment {
  const parsed = parseLambdaEnvironment('publisher', PublisherEnvironmentSchema, withBundledConfig(env));
  return {
    topicArn: parsed.TOPIC_ARN,
    catchUpAfterSeconds: parsed.CATCH_UP_AFTER_SECONDS,
    config: functionConfig(env),
  };
}
