// The publisher's environment, set by the CDK stack: `TOPIC_ARN`, the SNS topic every event is published
// to. Nothing else: the stream record carries the whole event, so the publisher needs no config or secrets.
import * as z from 'zod';
import type { PublisherVariables } from '../../shared/contracts/functionEnvironments.js';
import { type EnvironmentShape, parseLambdaEnvironment } from '../shared/lambdaEnvironment.js';
import { SnsTopicArnSchema } from '../shared/snsTopicArn.js';

const PublisherEnvironmentSchema = z.object({
  TOPIC_ARN: SnsTopicArnSchema,
} satisfies EnvironmentShape<PublisherVariables>);

export interface PublisherEnvironment {
  topicArn: string;
}

export function parsePublisherEnvironment(env: NodeJS.ProcessEnv): PublisherEnvironment {
  const parsed = parseLambdaEnvironment('publisher', PublisherEnvironmentSchema, env);
  return { topicArn: parsed.TOPIC_ARN };
}
