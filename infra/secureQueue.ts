// The settings every queue of the stack shares: encrypted at rest with SQS-managed keys and reachable over
// TLS only. SQS-managed rather than KMS keys because SNS delivers to these queues, and SNS can only write
// to a KMS-encrypted queue whose key policy names it; SSE-SQS needs no key policy and costs nothing.
import type { Duration } from 'aws-cdk-lib';
import { type DeadLetterQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

export interface SecureQueueProps {
  /** @default Duration.days(4), SQS's default */
  readonly retentionPeriod?: Duration;
  /** @default Duration.seconds(30), SQS's default */
  readonly visibilityTimeout?: Duration;
  /** @default none */
  readonly deadLetterQueue?: DeadLetterQueue;
}

export function secureQueue(scope: Construct, id: string, props: SecureQueueProps = {}): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    ...(props.retentionPeriod ? { retentionPeriod: props.retentionPeriod } : {}),
    ...(props.visibilityTimeout ? { visibilityTimeout: props.visibilityTimeout } : {}),
    ...(props.deadLetterQueue ? { deadLetterQueue: props.deadLetterQueue } : {}),
  });
}
