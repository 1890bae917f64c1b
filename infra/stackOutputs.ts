// The stack's outputs, printed by `cdk deploy`: what the operator needs next. The secret names to put
// values into, the queue URLs a replay moves messages between, and where to watch. The operator commands
// (`meal-notifier status --stack`, …) find the stack's resources by these keys (stackOutputKeys.ts).
import { CfnOutput, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { putSecretsCommand } from '../shared/contracts/secretShards.js';
import { channelOutputKeys, outputKeyPart, STACK_OUTPUT_KEYS } from '../shared/contracts/stackOutputKeys.js';
import type { ChannelQueues } from './deliveryQueues.js';
import type { NotifierSecret } from './notifierSecrets.js';

export interface StackOutputsProps {
  readonly table: ITable;
  readonly eventTopic: ITopic;
  readonly alarmTopic: ITopic;
  readonly dashboardName: string;
  readonly secrets: readonly NotifierSecret[];
  readonly channels: readonly ChannelQueues[];
  readonly publisherFailureQueue: IQueue;
  /** Every SNS subscription's dead-letter queue. */
  readonly subscriptionDeadLetterQueue: IQueue;
  /** Whether the stack polls; `meal-notifier status --stack` does not count organizations as failing when it does not. */
  readonly pollingEnabled: boolean;
}

/** Outputs sit at the stack's top level so their names read plainly (`SecretNORTHTOKEN`, not a hash). */
export function addStackOutputs(stack: Stack, props: StackOutputsProps): void {
  const taken = new Set<string>();
  const output = (name: string, value: string, description: string) => {
    const base = outputKeyPart(name);
    let id = base;
    // Ids that differ only in punctuation (`a-b`, `ab`) would collide once cleaned.
    for (let n = 2; taken.has(id); n += 1) id = `${base}${n}`;
    taken.add(id);
    new CfnOutput(stack, id, { value, description: description.slice(0, 1024) });
  };

  output(
    STACK_OUTPUT_KEYS.stateTable,
    props.table.tableName,
    'The state table (snapshots, event log, poll state).',
  );
  output(STACK_OUTPUT_KEYS.eventTopic, props.eventTopic.topicArn, 'Every order event is published here.');
  output(STACK_OUTPUT_KEYS.alarmTopic, props.alarmTopic.topicArn, 'Subscribe to it to receive the alarms.');
  output(
    STACK_OUTPUT_KEYS.dashboard,
    `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards:name=${props.dashboardName}`,
    'The CloudWatch dashboard.',
  );
  // One per shard, whatever the number of organizations and subscribers whose values it holds.
  for (const { envName, name, uses, keys, family } of props.secrets) {
    const [what, noun] =
      family === 'organization-tokens'
        ? ["the organization tokens'", 'token']
        : ["the Slack and webhook subscribers'", 'secret'];
    const held = `${keys.length === 1 ? `the ${noun}` : `${keys.length} ${noun}s`} by name (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', ...' : ''})`;
    const put = `One of ${what} secrets, holding ${held}. Put every value from one JSON file: ${putSecretsCommand(secretsPrefixOf(name, envName))}.`;
    const users = uses.map((use) => use.path);
    output(
      `Secret${envName}`,
      name,
      `${put} Used by ${users.slice(0, 5).join(', ')}${users.length > 5 ? `, ... (${users.length})` : ''}.`,
    );
  }
  // Two per channel type, whatever the number of subscribers: `--subscriber` picks one's messages.
  for (const { type, queue, deadLetterQueue } of props.channels) {
    const keys = channelOutputKeys(type);
    output(
      keys.queue,
      queue.queueUrl,
      `Deliveries to the ${type} subscribers waiting or being retried, each message naming its subscriber.`,
    );
    output(
      keys.deadLetterQueue,
      deadLetterQueue.queueUrl,
      `Deliveries to the ${type} subscribers that failed for good, each naming its subscriber; list them with meal-notifier deliveries --stack --failed, replay one subscriber's with meal-notifier replay --stack --subscriber <id> --dead-letters.`,
    );
  }
  output(
    STACK_OUTPUT_KEYS.publisherFailureQueue,
    props.publisherFailureQueue.queueUrl,
    'Stream batches the publisher could not publish (their positions; the events stay in the table for 14 days); meal-notifier republish --stack publishes them.',
  );
  output(
    STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue,
    props.subscriptionDeadLetterQueue.queueUrl,
    'Notifications SNS could not deliver to a subscription (an e-mail address, a subscriber queue); meal-notifier deliveries --stack --failed lists them, meal-notifier replay --stack --dead-letters sends a queue subscriber its own again.',
  );
  output(
    STACK_OUTPUT_KEYS.polling,
    props.pollingEnabled ? 'on' : 'off',
    'Whether the stack polls (-c polling=on|off). Off, meal-notifier status --stack does not count the organizations as failing.',
  );
}

/** The prefix a secret's name was built with (it ends with the secret's own part). */
function secretsPrefixOf(name: string, envName: string): string {
  return name.slice(0, name.length - envName.length);
}
