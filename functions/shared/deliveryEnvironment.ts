// The environment of the Slack and webhook delivery functions (the contract is in
// deliveryQueueContract.ts), parsed and cross-checked against the config at import, so a miswired stack
// fails on its first cold start naming the variable, not on some later message.
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
  /** By source queue ARN. */
  subscriberOfQueue: ReadonlyMap<string, S>;
  /** By subscriber id. */
  deadLetterQueueUrl: ReadonlyMap<string, string>;
}

const SQS_QUEUE_ARN = /^arn:aws[a-z-]*:sqs:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,80}$/;
const SUBSCRIBER_ID = /^[a-z0-9][a-z0-9-_]{0,63}$/;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * A JSON object of strings. Problems are reported on the variable itself (no nested path), naming keys —
 * ARNs and subscriber ids, never secrets — but not the values.
 */
function jsonStringMap(
  keyNoun: string,
  isKey: (key: string) => boolean,
  valueNoun: string,
  isValue: (value: string) => boolean,
) {
  return z.string().transform((text, ctx) => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return fail(`must be a JSON object of ${keyNoun} → ${valueNoun}, and is not valid JSON`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return fail(`must be a JSON object of ${keyNoun} → ${valueNoun}`);
    }
    const entries = Object.entries(json);
    if (entries.length === 0) return fail(`maps no ${keyNoun}`);
    const problems: string[] = [];
    for (const [key, value] of entries) {
      if (!isKey(key)) problems.push(`"${key}" is not ${keyNoun}`);
      else if (typeof value !== 'string' || !isValue(value))
        problems.push(`the value of "${key}" is not ${valueNoun}`);
    }
    if (problems.length > 0) return fail(problems.join(', '));
    return new Map(entries as [string, string][]);
  });
}

const DeliveryEnvironmentSchema = z.object({
  STATE_TABLE_NAME: z.string().min(1),
  NOTIFIER_CONFIG: z.string().min(1),
  SECRETS_PREFIX: z.string().min(1),
  QUEUE_SUBSCRIBERS: jsonStringMap(
    'an SQS queue ARN',
    (key) => SQS_QUEUE_ARN.test(key),
    'a subscriber id',
    (value) => SUBSCRIBER_ID.test(value),
  ),
  DLQ_URLS: jsonStringMap('a subscriber id', (key) => SUBSCRIBER_ID.test(key), 'an SQS queue URL', isHttpUrl),
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
  const problems: string[] = [];
  const subscriberOfQueue = new Map<string, S>();
  for (const [queueArn, subscriberId] of parsed.QUEUE_SUBSCRIBERS) {
    const subscriber = config.subscribers.find(({ id }) => id === subscriberId);
    if (subscriber === undefined) {
      problems.push(
        `QUEUE_SUBSCRIBERS: queue ${queueArn} names subscriber "${subscriberId}", which NOTIFIER_CONFIG does not have`,
      );
    } else if (subscriber.type !== subscriberType) {
      problems.push(
        `QUEUE_SUBSCRIBERS: subscriber "${subscriberId}" is a ${subscriber.type} subscriber; ${functionName} delivers ${subscriberType} subscribers only`,
      );
    } else if (!parsed.DLQ_URLS.has(subscriberId)) {
      problems.push(`DLQ_URLS: no dead-letter queue for subscriber "${subscriberId}"`);
    } else subscriberOfQueue.set(queueArn, subscriber as S);
  }
  if (problems.length > 0) throw new LambdaEnvironmentError(functionName, problems);
  return {
    tableName: parsed.STATE_TABLE_NAME,
    config,
    secretsPrefix: parsed.SECRETS_PREFIX,
    subscriberOfQueue,
    deadLetterQueueUrl: parsed.DLQ_URLS,
  };
}
