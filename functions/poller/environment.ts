// The poller's environment, set by the CDK stack; the config comes from the bundle (bundledConfig.ts)
// unless NOTIFIER_CONFIG is set.
import * as z from 'zod';
import type { Config } from '../../shared/config/configSchema.js';
import {
  awsDefaultIntervals,
  functionConfig,
  withBundledConfig,
} from '../../shared/contracts/bundledConfig.js';
import type { PollerVariables } from '../../shared/contracts/functionEnvironments.js';
import { CatchUpAfterSecondsSchema } from '../shared/catchUpAfterSeconds.js';
import { type EnvironmentShape, parseLambdaEnvironment } from '../shared/lambdaEnvironment.js';

const PollerEnvironmentSchema = z.object({
  STATE_TABLE_NAME: z.string().min(1),
  /** The notifier config (JSON; secret references only), as the stack read it at synth time. */
  NOTIFIER_CONFIG: z.string().min(1),
  /** The organizations' tokens are the secret named this prefix plus ORGANIZATION_TOKENS_SECRET. */
  SECRETS_PREFIX: z.string().min(1),
  /** Where each cycle sends the tick of the organization's next one. */
  TICK_QUEUE_URL: z.url({ protocol: /^https?$/, error: 'must be an SQS queue URL' }),
  /** The config's catch-up thresholds, for the catch-ups each cycle records. */
  CATCH_UP_AFTER_SECONDS: CatchUpAfterSecondsSchema,
} satisfies EnvironmentShape<PollerVariables, 'NOTIFIER_CONFIG'>);

export interface PollerEnvironment {
  tableName: string;
  config: Config;
  /** The organizations whose interval is the AWS default, which a small organization shortens. */
  awsDefaultIntervals: ReadonlySet<string>;
  secretsPrefix: string;
  tickQueueUrl: string;
  /** The config's catch-up thresholds, in seconds. */
  catchUpAfterSeconds: number[];
}

export function parsePollerEnvironment(env: NodeJS.ProcessEnv): PollerEnvironment {
  const parsed = parseLambdaEnvironment('poller', PollerEnvironmentSchema, withBundledConfig(env));
  return {
    tableName: parsed.STATE_TABLE_NAME,
    config: functionConfig(env),
    awsDefaultIntervals: awsDefaultIntervals(env),
    secretsPrefix: parsed.SECRETS_PREFIX,
    tickQueueUrl: parsed.TICK_QUEUE_URL,
    catchUpAfterSeconds: parsed.CATCH_UP_AFTER_SECONDS,
  };
}
