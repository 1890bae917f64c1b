// The SNS topic every order event is published to, once, by the publisher: e-mail subscriptions and the
// Slack and webhook subscribers' queues hang off it, each with the filter policy compiled from its
// subscriber's filter. Messages are encrypted with the notifier's key and only accepted over TLS; the
// functions that publish to it (the publisher, the digest) are let in by grantPublishToTopic.
import { Validations } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { NotifierFunction } from './notifierFunction.js';

export interface EventTopicProps {
  /** Encrypts the topic's messages at rest (NotifierKey). */
  readonly key: IKey;
  /**
   * The sender name e-mail subscribers see.
   * @default 'Meal orders'
   */
  readonly displayName?: string;
}

export class EventTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: EventTopicProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', {
      displayName: props.displayName ?? 'Meal orders',
      masterKey: props.key,
      enforceSSL: true,
    });
  }
}

/**
 * Lets `publisher` publish to the topic. Topic.grantPublish also grants kms:GenerateDataKey* and
 * kms:Decrypt on the topic's key, whose wildcard cdk-nag flags: acknowledged here, with the reason.
 */
export function grantPublishToTopic(topic: Topic, publisher: NotifierFunction): void {
  topic.grantPublish(publisher);
  Validations.of(publisher).acknowledge({
    id: 'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
    reason:
      'Publishing to the KMS-encrypted topic needs a data key from its key (granted by Topic.grantPublish on that one key only); the wildcard covers GenerateDataKey and its WithoutPlaintext variant.',
  });
}
