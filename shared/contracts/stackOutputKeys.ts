// The names of the stack's outputs, shared by the CDK stack that writes them and the operator commands that
// read them (`--stack`), so the two cannot drift apart. Output keys may hold letters and digits only.

export const STACK_OUTPUT_KEYS = {
  stateTable: 'StateTableName',
  eventTopic: 'EventTopicArn',
  alarmTopic: 'AlarmTopicArn',
  dashboard: 'DashboardUrl',
  publisherFailureQueue: 'PublisherFailureQueueUrl',
  /** What SNS could not deliver to a subscription (every subscription's redrive policy points there). */
  subscriptionDeadLetterQueue: 'SubscriptionDeadLetterQueueUrl',
  /** `on` or `off`: whether the stack polls (`-c polling=`). */
  polling: 'Polling',
} as const;

/** The output keys of a channel's queues: `SlackDeliveryQueueUrl`, `WebhookDeadLetterQueueUrl`, … */
export interface ChannelOutputKeys {
  /** The URL of the channel's delivery queue, shared by its subscribers. */
  queue: string;
  /** The URL of its dead-letter queue, each letter naming its subscriber. */
  deadLetterQueue: string;
}

/** `kitchen-north` → `kitchennorth`: what an output key can hold of a name. */
export function outputKeyPart(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '');
}

/** The output keys of the delivery queues of a channel type (`slack`, `webhook`). */
export function channelOutputKeys(type: 'slack' | 'webhook'): ChannelOutputKeys {
  const name = type === 'slack' ? 'Slack' : 'Webhook';
  return { queue: `${name}DeliveryQueueUrl`, deadLetterQueue: `${name}DeadLetterQueueUrl` };
}
