// The resources of a deployed stack the operator commands work on, read from its outputs (a key → value
// map, from CloudFormation or from the file `cdk deploy --outputs-file` writes).

import { channelOutputKeys, STACK_OUTPUT_KEYS } from '../contracts/stackOutputKeys.js';
import { StackOutputsError } from './errors.js';

/**
 * A subscriber's queues: its channel's delivery queue and dead-letter queue, which it shares with the other
 * subscribers of its type; its own messages there carry its id (the `subscriber` attribute).
 */
export interface SubscriberQueueUrls {
  queueUrl: string;
  deadLetterQueueUrl: string;
}

export interface StackResources {
  stackName: string;
  tableName: string;
  /** Undefined when the outputs do not name it: only `republish` needs it. */
  eventTopicArn: string | undefined;
  /** Undefined when the outputs do not name it: its depth is then unknown. */
  publisherFailureQueueUrl: string | undefined;
  /** The SNS subscriptions' dead-letter queue; undefined for a stack deployed before it existed. */
  subscriptionDeadLetterQueueUrl: string | undefined;
  /** Undefined when the outputs do not name it. */
  alarmTopicArn: string | undefined;
  /** By subscriber id, for the Slack and webhook subscribers whose queues the outputs name. */
  queues: Map<string, SubscriberQueueUrls>;
  /** False when the stack was deployed with `-c polling=off`; true when the outputs do not say (older stacks polled). */
  pollingEnabled: boolean;
}

/**
 * @param subscribers the config's Slack and webhook subscribers
 * @throws StackOutputsError when the state table, which every command reads, is not among the outputs
 */
export function stackResourcesFromOutputs(
  stackName: string,
  outputs: Readonly<Record<string, string>>,
  subscribers: readonly { id: string; type: 'slack' | 'webhook' }[],
): StackResources {
  const tableName = outputs[STACK_OUTPUT_KEYS.stateTable];
  if (!tableName) {
    throw new StackOutputsError(
      `stack ${stackName} has no output ${STACK_OUTPUT_KEYS.stateTable} (outputs: ${Object.keys(outputs).join(', ') || 'none'}); is it a meal-order-notifier stack?`,
    );
  }
  const queues = new Map<string, SubscriberQueueUrls>();
  for (const { id, type } of subscribers) {
    const keys = channelOutputKeys(type);
    const queueUrl = outputs[keys.queue];
    const deadLetterQueueUrl = outputs[keys.deadLetterQueue];
    if (queueUrl && deadLetterQueueUrl) queues.set(id, { queueUrl, deadLetterQueueUrl });
  }
  return {
    stackName,
    tableName,
    eventTopicArn: outputs[STACK_OUTPUT_KEYS.eventTopic] || undefined,
    publisherFailureQueueUrl: outputs[STACK_OUTPUT_KEYS.publisherFailureQueue] || undefined,
    subscriptionDeadLetterQueueUrl: outputs[STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue] || undefined,
    alarmTopicArn: outputs[STACK_OUTPUT_KEYS.alarmTopic] || undefined,
    queues,
    pollingEnabled: outputs[STACK_OUTPUT_KEYS.polling] !== 'off',
  };
}
