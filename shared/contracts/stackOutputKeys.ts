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

export interface SubscriberOutputKeys {
  /** The URL of the subscriber's queue. */
  queue: string;
  /** The URL of its dead-letter queue. */
  deadLetterQueue: string;
}

/** `kitchen-north` → `kitchennorth`: what an output key can hold of a name. */
export function outputKeyPart(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '');
}

/**
 * The output keys of each Slack or webhook subscriber's queues, in config order (`Queue<id>` and
 * `DeadLetterQueue<id>`, punctuation dropped). Ids that differ only in punctuation (`a-b`, `ab`) get a
 * number from the second on (`Queueab2`), so every subscriber keeps keys of its own.
 */
export function subscriberOutputKeys(subscriberIds: readonly string[]): Map<string, SubscriberOutputKeys> {
  const taken = new Set<string>();
  const keys = new Map<string, SubscriberOutputKeys>();
  for (const id of subscriberIds) {
    const base = outputKeyPart(id);
    let suffix = '';
    for (let n = 2; taken.has(`${base}${suffix}`); n += 1) suffix = String(n);
    taken.add(`${base}${suffix}`);
    keys.set(id, { queue: `Queue${base}${suffix}`, deadLetterQueue: `DeadLetterQueue${base}${suffix}` });
  }
  return keys;
}
