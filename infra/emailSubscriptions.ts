// E-mail subscribers on AWS: one SNS e-mail subscription per recipient, carrying the subscriber's compiled
// filter policy. SNS sends the `email` body the publisher composed (plain text, never contact details) and
// asks each recipient to confirm the subscription first. A disabled subscriber gets no subscriptions.
import { Annotations } from 'aws-cdk-lib';
import { type ITopic, Subscription, SubscriptionProtocol } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { EmailSubscriber } from '../shared/config/configSchema.js';
import { subscriptionFilterPolicy } from './subscriptionFilterPolicy.js';

export interface EmailSubscriptionsProps {
  /** The event topic. */
  readonly topic: ITopic;
  /** The config's e-mail subscribers. */
  readonly subscribers: readonly EmailSubscriber[];
}

export class EmailSubscriptions extends Construct {
  /** By subscriber id, one per recipient in `to` order. */
  readonly subscriptions: ReadonlyMap<string, readonly Subscription[]>;

  constructor(scope: Construct, id: string, props: EmailSubscriptionsProps) {
    super(scope, id);
    const subscriptions = new Map<string, Subscription[]>();
    for (const subscriber of props.subscribers) {
      if (!subscriber.enabled) continue;
      const scopeOfSubscriber = new Construct(this, subscriber.id);
      if (subscriber.includeContactDetails) {
        Annotations.of(scopeOfSubscriber).addWarningV2(
          'meal-order-notifier:emailContactDetails',
          `e-mail subscriber "${subscriber.id}" asks for contact details, which SNS e-mail never carries: one message serves every recipient`,
        );
      }
      const filterPolicy = subscriptionFilterPolicy(subscriber.filter);
      subscriptions.set(
        subscriber.id,
        subscriber.to.map(
          // Named by address, so reordering `to` does not replace subscriptions (and ask to confirm again).
          (address) =>
            new Subscription(scopeOfSubscriber, address, {
              topic: props.topic,
              protocol: SubscriptionProtocol.EMAIL,
              endpoint: address,
              ...(filterPolicy ? { filterPolicy } : {}),
            }),
        ),
      );
    }
    this.subscriptions = subscriptions;
  }
}
