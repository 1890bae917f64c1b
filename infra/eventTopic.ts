// The SNS topic every order event is published to, once, by the publisher: e-mail subscriptions and the
// Slack and webhook subscribers' queues hang off it, each with the filter policy compiled from its
// subscriber's filter. Messages are encrypted at rest with SNS's AWS managed key (aws/sns: no key to pay
// for, $1 a month, and the publishers need no key permission: its policy lets the account's principals use
// it through SNS) and only accepted over TLS; the functions that publish to it (the publisher, the digest)
// are let in by grantPublishToTopic.
import { type CfnTopic, Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { NotifierFunction } from './notifierFunction.js';

export interface EventTopicProps {
  /**
   * The sender name e-mail subscribers see.
   * @default 'Meal orders'
   */
  readonly displayName?: string;
}

export class EventTopic extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: EventTopicProps = {}) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', {
      displayName: props.displayName ?? 'Meal orders',
      enforceSSL: true,
    });
    // By alias on the resource, not as a CDK key: grantPublish then grants sns:Publish alone.
    (this.topic.node.defaultChild as CfnTopic).kmsMasterKeyId = AWS_MANAGED_SNS_KEY;
  }
}

/** SNS's AWS managed key. */
export const AWS_MANAGED_SNS_KEY = 'alias/aws/sns';

/** Lets `publisher` publish to the topic: sns:Publish on it, nothing else (the key is AWS managed). */
export function grantPublishToTopic(topic: Topic, publisher: NotifierFunction): void {
  topic.grantPublish(publisher);
}
