// The customer managed KMS key that encrypts the event topic and the alarm topic. A customer managed key,
// not the AWS managed aws/sns key, because CloudWatch alarms can only publish to a topic whose key policy
// lets CloudWatch use the key, and an AWS managed key's policy cannot be changed (NotifierAlarms adds
// that statement, for the alarm topic only).
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface NotifierKeyProps {
  /**
   * Days a deleted key waits before it is gone. Nothing outlives the key that needs it: the topics it
   * encrypts hold messages only in flight, and the queues use SQS-managed encryption.
   * @default Duration.days(7), the shortest KMS allows
   */
  readonly pendingWindow?: Duration;
}

export class NotifierKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: NotifierKeyProps = {}) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'meal-order-notifier: encrypts the order event topic and the alarm topic',
      enableKeyRotation: true,
      pendingWindow: props.pendingWindow ?? Duration.days(7),
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }
}
