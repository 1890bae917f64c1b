// The SNS topic every order event is published to, once, by the publisher: e-mail subscriptions and the
// Slack and webhook subscribers' queues hang off it, each with the filter policy compiled from its
// subscriber's filter. Messages are encrypted with the notifier's key and only accepted over TLS.
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

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
