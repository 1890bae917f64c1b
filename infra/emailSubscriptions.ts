// E-mail subscribers on AWS: one SNS e-mail subscription per recipient, carrying the subscriber's compiled
// filter policy. SNS sends the `email` body the publisher composed (plain text, never contact details) and
// asks each recipient to confirm the subscription first. A disabled subscriber gets no subscriptions.
// A subscriber with a digest has a second subscription per recipient, to the digests addressed to it
// alone (the digest function publishes them); its first leaves out the types the digest gathers, and is
// not made at all when its filter lets through no other type. Every subscription dead-letters to the
// stack's SNS dead-letter queue, and its policy has a branch for the e-mails `replay --dead-letters`
// re-sends to it alone (withResendBranch), unless its filter already uses all SNS allows: a warning says so.
import { Annotations } from 'aws-cdk-lib';
import { type CfnSubscription, type ITopic, Subscription, SubscriptionProtocol } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { EmailSubscriber } from '../shared/config/configSchema.js';
import { emailOnAwsWarnings } from '../shared/contracts/emailOnAws.js';
import { emailSubscriptionPolicy } from '../shared/contracts/emailSubscriptionPolicy.js';
import type { ResendSubscriptionKind } from '../shared/contracts/messageAttributes.js';
import { takesEventsAtOnce } from '../shared/contracts/snsFilterPolicy.js';
import type { SubscriptionDeadLetters } from './subscriptionDeadLetters.js';
import { scopedToMessageAttributes } from './subscriptionFilterPolicy.js';

export interface EmailSubscriptionsProps {
  /** The event topic. */
  readonly topic: ITopic;
  /** The config's e-mail subscribers. */
  readonly subscribers: readonly EmailSubscriber[];
  /** What SNS cannot deliver to an address goes there. */
  readonly deadLetters: SubscriptionDeadLetters;
}

export class EmailSubscriptions extends Construct {
  /** By subscriber id, one per recipient in `to` order (none when its digest takes every type it gets). */
  readonly subscriptions: ReadonlyMap<string, readonly Subscription[]>;
  /** By the id of each subscriber with a digest: its digest subscriptions, one per recipient. */
  readonly digestSubscriptions: ReadonlyMap<string, readonly Subscription[]>;

  constructor(scope: Construct, id: string, props: EmailSubscriptionsProps) {
    super(scope, id);
    const subscriptions = new Map<string, Subscription[]>();
    const digestSubscriptions = new Map<string, Subscription[]>();
    for (const subscriber of props.subscribers) {
      if (!subscriber.enabled) continue;
      const scopeOfSubscriber = new Construct(this, subscriber.id);
      for (const warning of emailOnAwsWarnings(subscriber)) {
        Annotations.of(scopeOfSubscriber).addWarningV2(`meal-order-notifier:${warning.code}`, warning.text);
      }
      const held = subscriber.digest?.types ?? [];
      const subscribe = (scope: Construct, kind: ResendSubscriptionKind) =>
        subscriber.to.map((address) => {
          const compiled = emailSubscriptionPolicy(subscriber, kind, address);
          // Named by address, so reordering `to` does not replace subscriptions (and ask to confirm again).
          const subscription = new Subscription(scope, address, {
            topic: props.topic,
            protocol: SubscriptionProtocol.EMAIL,
            endpoint: address,
          });
          // The CDK's filterPolicy cannot say `$or` in the MessageAttributes scope; the policy is already
          // SNS's JSON (conditions as lists), checked against SNS's limits by withResendBranch.
          (subscription.node.defaultChild as CfnSubscription).filterPolicy = compiled.policy;
          return props.deadLetters.attach(scopedToMessageAttributes(subscription));
        });
      subscriptions.set(
        subscriber.id,
        takesEventsAtOnce(subscriber.filter, held) ? subscribe(scopeOfSubscriber, 'events') : [],
      );
      if (subscriber.digest !== undefined) {
        digestSubscriptions.set(
          subscriber.id,
          subscribe(new Construct(scopeOfSubscriber, 'Digest'), 'digest'),
        );
      }
    }
    this.subscriptions = subscriptions;
    this.digestSubscriptions = digestSubscriptions;
  }
}
