// `--stack NAME`: the adapters of a deployed stack, for an operator command pointed at it instead of the
// local state file (its options are in stackOptions.ts, which loads this module on first use). Resources come from the stack's outputs (CloudFormation, or
// `--stack-outputs FILE`); credentials and region from the AWS SDK's usual chain (AWS_PROFILE, SSO,
// AWS_ACCESS_KEY_ID…, AWS_REGION), `--region` first. Each service's endpoint can be overridden the SDK's
// way, e.g. AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:8000 for DynamoDB Local.
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../../shared/config/configSchema.js';
import { type StackResources, stackResourcesFromOutputs } from '../../shared/operations/stackResources.js';
import { DynamoStateStore } from '../../shared/store/dynamo/dynamoStateStore.js';
import { DynamoSubscriberStatus } from '../../shared/store/dynamo/dynamoSubscriberStatus.js';
import { StateStoreError } from '../../shared/store/errors.js';
import { stackOutputsFromCloudFormation, stackOutputsFromFile } from './readStackOutputs.js';
import { SqsDeliveryQueues } from './sqsDeliveryQueues.js';
import { SqsPublisherFailureQueue } from './sqsPublisherFailureQueue.js';
import {
  SnsEmailResender,
  SnsSubscriptionEndpoints,
  SqsSubscriptionDeadLetterQueue,
} from './sqsSubscriptionDeadLetterQueue.js';
import { stackAccessError } from './stackAccessError.js';

/** Which deployed stack, and where from: a command's `--stack`, `--region` and `--stack-outputs`. */
export interface StackTarget {
  stack: string;
  region?: string;
  stackOutputs?: string;
}

export interface DeployedStack {
  resources: StackResources;
  store: DynamoStateStore;
  subscriberStatus: DynamoSubscriberStatus;
  queues: SqsDeliveryQueues;
  /** Undefined when the outputs do not name it. */
  failureQueue: SqsPublisherFailureQueue | undefined;
  /** The SNS subscriptions' dead-letter queue; undefined when the outputs do not name it. */
  subscriptionDeadLetters: SqsSubscriptionDeadLetterQueue | undefined;
  /** The subscriptions of the event and alarm topics, by ARN. */
  subscriptionEndpoints: SnsSubscriptionEndpoints;
  /** Re-sends an e-mail through the event topic; undefined when the outputs do not name the topic. */
  emailResender: SnsEmailResender | undefined;
  clients: { sns: SNSClient; streams: DynamoDBStreamsClient };
  close(): void;
}

/** Reads the stack's outputs and builds its adapters; `config` is the file the stack was deployed with. */
async function openDeployedStack(options: StackTarget, config: Config): Promise<DeployedStack> {
  const clientConfig = options.region === undefined ? {} : { region: options.region };
  const dynamo = new DynamoDBClient(clientConfig);
  const sqs = new SQSClient(clientConfig);
  const sns = new SNSClient(clientConfig);
  const streams = new DynamoDBStreamsClient(clientConfig);
  const close = () => {
    for (const client of [dynamo, sqs, sns, streams]) client.destroy();
  };
  try {
    let outputs: Record<string, string>;
    if (options.stackOutputs !== undefined) {
      outputs = await stackOutputsFromFile(options.stackOutputs, options.stack);
    } else {
      const cloudFormation = new CloudFormationClient(clientConfig);
      try {
        outputs = await stackOutputsFromCloudFormation(cloudFormation, options.stack);
      } finally {
        cloudFormation.destroy();
      }
    }
    const queueSubscribers = config.subscribers.flatMap((subscriber) =>
      subscriber.type === 'email' ? [] : [{ id: subscriber.id, type: subscriber.type }],
    );
    const resources = stackResourcesFromOutputs(options.stack, outputs, queueSubscribers);
    return {
      resources,
      store: new DynamoStateStore({ client: dynamo, tableName: resources.tableName }),
      subscriberStatus: new DynamoSubscriberStatus({ client: dynamo, tableName: resources.tableName }),
      queues: new SqsDeliveryQueues(sqs, resources.queues),
      failureQueue:
        resources.publisherFailureQueueUrl === undefined
          ? undefined
          : new SqsPublisherFailureQueue(sqs, resources.publisherFailureQueueUrl),
      subscriptionDeadLetters:
        resources.subscriptionDeadLetterQueueUrl === undefined
          ? undefined
          : new SqsSubscriptionDeadLetterQueue(
              sqs,
              resources.subscriptionDeadLetterQueueUrl,
              resources.queues,
            ),
      subscriptionEndpoints: new SnsSubscriptionEndpoints(
        sns,
        [resources.eventTopicArn, resources.alarmTopicArn].filter((arn) => arn !== undefined),
      ),
      emailResender:
        resources.eventTopicArn === undefined
          ? undefined
          : new SnsEmailResender(sns, resources.eventTopicArn),
      clients: { sns, streams },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/** Opens the stack, runs `use` on it and closes it; a state store failure is named as the stack's table. */
export async function withDeployedStack<T>(
  options: StackTarget,
  config: Config,
  use: (stack: DeployedStack) => Promise<T>,
): Promise<T> {
  const stack = await openDeployedStack(options, config);
  try {
    return await use(stack);
  } catch (error) {
    throw explainStackFailure(error, stack);
  } finally {
    stack.close();
  }
}

/**
 * A state store failure named as the stack's table, with what to check (credentials, region, endpoint);
 * any other error as it is.
 */
function explainStackFailure(error: unknown, stack: DeployedStack): unknown {
  if (!(error instanceof StateStoreError)) return error;
  const what = `the state table ${stack.resources.tableName} of stack ${stack.resources.stackName}`;
  return stackAccessError(what, error.cause ?? error, 'AWS_ENDPOINT_URL_DYNAMODB');
}
