// The stack's outputs, printed by `cdk deploy`: what the operator needs next. The secret names to put
// values into, the queue URLs a replay moves messages between, and where to watch.
import { CfnOutput, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { NotifierSecret } from './notifierSecrets.js';
import type { SubscriberQueue } from './subscriberQueues.js';

export interface StackOutputsProps {
  readonly table: ITable;
  readonly eventTopic: ITopic;
  readonly alarmTopic: ITopic;
  readonly dashboardName: string;
  readonly secrets: readonly NotifierSecret[];
  readonly queues: readonly SubscriberQueue[];
  readonly publisherFailureQueue: IQueue;
}

/** Outputs sit at the stack's top level so their names read plainly (`SecretNORTHTOKEN`, not a hash). */
export function addStackOutputs(stack: Stack, props: StackOutputsProps): void {
  const taken = new Set<string>();
  const output = (name: string, value: string, description: string) => {
    const base = name.replace(/[^A-Za-z0-9]/g, '');
    let id = base;
    // Ids that differ only in punctuation (`a-b`, `ab`) would collide once cleaned.
    for (let n = 2; taken.has(id); n += 1) id = `${base}${n}`;
    taken.add(id);
    new CfnOutput(stack, id, { value, description: description.slice(0, 1024) });
  };

  output('StateTableName', props.table.tableName, 'The state table (snapshots, event log, poll state).');
  output('EventTopicArn', props.eventTopic.topicArn, 'Every order event is published here.');
  output('AlarmTopicArn', props.alarmTopic.topicArn, 'Subscribe to it to receive the alarms.');
  output(
    'DashboardUrl',
    `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards:name=${props.dashboardName}`,
    'The CloudWatch dashboard.',
  );
  for (const { envName, name, uses, keys } of props.secrets) {
    const put =
      keys.length > 0
        ? `Put every value as one JSON object, ${JSON.stringify(Object.fromEntries(keys.map((key) => [key, '...'])))}: aws secretsmanager put-secret-value --secret-id ${name} --secret-string file://<that file>.`
        : `Put its value: aws secretsmanager put-secret-value --secret-id ${name} --secret-string '...'.`;
    output(`Secret${envName}`, name, `${put} Used by ${uses.map((use) => use.path).join(', ')}.`);
  }
  for (const { subscriber, queue, deadLetterQueue } of props.queues) {
    output(
      `Queue${subscriber.id}`,
      queue.queueUrl,
      `Deliveries to ${subscriber.id} waiting or being retried.`,
    );
    output(
      `DeadLetterQueue${subscriber.id}`,
      deadLetterQueue.queueUrl,
      `Deliveries to ${subscriber.id} that failed for good; replay with aws sqs start-message-move-task.`,
    );
  }
  output(
    'PublisherFailureQueueUrl',
    props.publisherFailureQueue.queueUrl,
    'Stream batches the publisher could not publish (their positions; the events stay in the table for 14 days).',
  );
}
