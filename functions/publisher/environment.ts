// The publisher's environment, set by the CDK stack: `TOPIC_ARN`, the SNS topic every event is published
// to, and `CATCH_UP_AFTER_SECONDS`, the config's catch-up thresholds, for each event's `audience`
// attribute. Nothing else: the stream record carries the whole event (and when its change happened), so the
// publisher needs no config or secrets.
import * as z from 'zod';
import type { PublisherVariables } from '../../shared/contracts/functionEnvironments.js';
import { CatchUpAfterSecondsSchema } from '../shared/catchUpAfterSeconds.js';
import { type EnvironmentShape, parseLambdaEnvironment } from '../shared/lambdaEnvironment.js';
import { SnsTopicArnSchema } from '../shared/snsTopicArn.js';

const PublisherEnvironmentSchema = z.object({
  TOPIC_ARN: SnsTopicArnSchema,
  CATCH_UP_AFTER_SECONDS: CatchUpAfterSecondsSchema,
} satisfies EnvironmentShape<PublisherVariables>);

export interface PublisherEnvironment {
  topicArn: string;
  /** The config's catch-up thresholds, in seconds. */
  catchUpAfterSeconds: number[];
}

export function parsePublisherEnvironment(env: NodeJS.ProcessEnv): PublisherEnvironment {
  const parsed = parseLambdaEnvironment('publisher', PublisherEnvironmentSchema, env);
  return { topicArn: parsed.TOPIC_ARN, catchUpAfterSeconds: parsed.CATCH_UP_AFTER_SECONDS };
}
