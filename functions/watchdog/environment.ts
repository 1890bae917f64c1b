// The watchdog's environment, set by the CDK stack; the config (its organizations) comes from the bundle
// (bundledConfig.ts) unless NOTIFIER_CONFIG is set.
import * as z from 'zod';
import type { Config } from '../../shared/config/configSchema.js';
import { functionConfig, withBundledConfig } from '../../shared/contracts/bundledConfig.js';
import type { WatchdogVariables } from '../../shared/contracts/functionEnvironments.js';
import { type EnvironmentShape, parseLambdaEnvironment } from '../shared/lambdaEnvironment.js';
import { SnsTopicArnSchema } from '../shared/snsTopicArn.js';

const WatchdogEnvironmentSchema = z.object({
  STATE_TABLE_NAME: z.string().min(1),
  /** The notifier config (JSON; secret references only), as the stack read it at synth time. */
  NOTIFIER_CONFIG: z.string().min(1),
  /** Where a lost chain's restarting tick goes: the poller's tick queue. */
  TICK_QUEUE_URL: z.url({ protocol: /^https?$/, error: 'must be an SQS queue URL' }),
  /** Where the notice naming the overdue organizations goes: the stack's alarm topic. */
  ALARM_TOPIC_ARN: SnsTopicArnSchema,
} satisfies EnvironmentShape<WatchdogVariables, 'NOTIFIER_CONFIG'>);

export interface WatchdogEnvironment {
  tableName: string;
  config: Config;
  tickQueueUrl: string;
  alarmTopicArn: string;
}

export function parseWatchdogEnvironment(env: NodeJS.ProcessEnv): WatchdogEnvironment {
  const parsed = parseLambdaEnvironment('watchdog', WatchdogEnvironmentSchema, withBundledConfig(env));
  return {
    tableName: parsed.STATE_TABLE_NAME,
    config: functionConfig(env),
    tickQueueUrl: parsed.TICK_QUEUE_URL,
    alarmTopicArn: parsed.ALARM_TOPIC_ARN,
  };
}
