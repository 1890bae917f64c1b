// The environment of the Slack and webhook delivery functions (the contract is in
// deliveryQueueContract.ts), parsed at import, so a miswired stack fails on its first cold start naming the
// variable, not on some later message. Nothing in it is per subscriber: the subscribers are the bundled
// config's.
import * as z from 'zod';
import type { Config } from '../../shared/config/configSchema.js';
import { functionConfig, withBundledConfig } from '../../shared/contracts/bundledConfig.js';
import type { DeliverySubscriber } from '../../shared/contracts/deliveryQueueContract.js';
import type { DeliveryVariables } from '../../shared/contracts/functionEnvironments.js';
import {
  type EnvironmentShape,
  LambdaEnvironmentError,
  parseLambdaEnvironment,
} from './lambdaEnvironment.js';

export interface DeliveryEnvironment<S extends DeliverySubscriber> {
  tableName: string;
  config: Config;
  secretsPrefix: string;
  /** How many shards the stack laid the subscriber secrets out over (all Slack and webhook subscribers'). */
  subscriberSecretShards: number;
  /** The function's subscribers: the config's of its type, in config order. */
  subscribers: readonly S[];
  deliveryQueueUrl: string;
  deadLetterQueueUrl: string;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const queueUrl = z.string().refine(isHttpUrl, { message: 'must be an SQS queue URL' });

const DeliveryEnvironmentSchema = z.object({
  STATE_TABLE_NAME: z.string().min(1),
  NOTIFIER_CONFIG: z.string().min(1),
  SECRETS_PREFIX: z.string().min(1),
  SUBSCRIBER_SECRET_SHARDS: z
    .string()
    .regex(/^[1-9]\d*$/, { message: 'must be a whole number of shards, 1 or more' })
    .transform(Number),
  DELIVERY_QUEUE_URL: queueUrl,
  DEAD_LETTER_QUEUE_URL: queueUrl,
} satisfies EnvironmentShape<DeliveryVariables, 'NOTIFIER_CONFIG'>);

/**
 * @param functionName names the function in error messages, e.g. `webhook-delivery`
 * @param subscriberType the only subscriber type this function delivers
 */
export function parseDeliveryEnvironment<S extends DeliverySubscriber>(
  functionName: string,
  subscriberType: S['type'],
  env: NodeJS.ProcessEnv,
): DeliveryEnvironment<S> {
  const parsed = parseLambdaEnvironment(functionName, DeliveryEnvironmentSchema, withBundledConfig(env));
  const config = functionConfig(env);
  const subscribers = config.subscribers.filter(
    (subscriber): subscriber is S => subscriber.type === subscriberType,
  );
  if (subscribers.length === 0) {
    throw new LambdaEnvironmentError(functionName, [
      `NOTIFIER_CONFIG: no ${subscriberType} subscriber; ${functionName} has nothing to deliver`,
    ]);
  }
  return {
    tableName: parsed.STATE_TABLE_NAME,
    config,
    secretsPrefix: parsed.SECRETS_PREFIX,
    subscriberSecretShards: parsed.SUBSCRIBER_SECRET_SHARDS,
    subscribers,
    deliveryQueueUrl: parsed.DELIVERY_QUEUE_URL,
    deadLetterQueueUrl: parsed.DEAD_LETTER_QUEUE_URL,
  };
}
