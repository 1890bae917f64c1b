// The digest function's environment, set by the CDK stack: the state table (the event log, and the digests'
// claims) and the event topic the digests are published to; the config (organizations and the e-mail
// subscribers with a digest) comes from the bundle (bundledConfig.ts) unless NOTIFIER_CONFIG is set.
import * as z from 'zod';
import type { Config } from '../../shared/config/configSchema.js';
import { functionConfig, withBundledConfig } from '../../shared/contracts/bundledConfig.js';
import type { DigestVariables } from '../../shared/contracts/functionEnvironments.js';
import { type EnvironmentShape, parseLambdaEnvironment } from '../shared/lambdaEnvironment.js';
import { SnsTopicArnSchema } from '../shared/snsTopicArn.js';

const DigestEnvironmentSchema = z.object({
  STATE_TABLE_NAME: z.string().min(1),
  TOPIC_ARN: SnsTopicArnSchema,
  NOTIFIER_CONFIG: z.string().min(1),
} satisfies EnvironmentShape<DigestVariables, 'NOTIFIER_CONFIG'>);

export interface DigestEnvironment {
  tableName: string;
  topicArn: string;
  config: Config;
}

export function parseDigestEnvironment(env: NodeJS.ProcessEnv): DigestEnvironment {
  const parsed = parseLambdaEnvironment('digest', DigestEnvironmentSchema, withBundledConfig(env));
  return {
    tableName: parsed.STATE_TABLE_NAME,
    topicArn: parsed.TOPIC_ARN,
    config: functionConfig(env),
  };
}
