// A compiled SNS subscription filter policy as the CDK renders it: compileFilterPolicy decides what the
// policy is (the same rules the local matcher applies, refused at config time when SNS cannot express
// them); this only changes its form, each attribute becoming its list of conditions (exact
// strings, or one `anything-but`) as SNS reads them; and every filtered subscription names its scope.
import { type CfnSubscription, type Subscription, SubscriptionFilter } from 'aws-cdk-lib/aws-sns';
import { catchUpThresholds } from '../shared/config/catchUpAfter.js';
import type { SubscriberConfig } from '../shared/config/configSchema.js';
import type { SnsFilterPolicy } from '../shared/contracts/snsFilterPolicy.js';

/**
 * CATCH_UP_AFTER_SECONDS of the poller and the publisher: the enabled subscribers' distinct thresholds in
 * seconds, comma-separated, or `none`.
 */
export function catchUpAfterSecondsVariable(subscribers: readonly SubscriberConfig[]): string {
  const seconds = catchUpThresholds(subscribers).map((ms) => Math.round(ms / 1000));
  return seconds.length === 0 ? 'none' : seconds.join(',');
}

/** What every filter policy of the stack reads: the message attributes (the CDK names only MessageBody). */
export const FILTER_POLICY_SCOPE = 'MessageAttributes';

/**
 * Names the subscription's filter policy scope, MessageAttributes, which is also SNS's default. Stated, not
 * left to the default: CloudFormation is known to fail an update that edits the filter policy of a
 * subscription created without `FilterPolicyScope`.
 */
export function scopedToMessageAttributes(subscription: Subscription): Subscription {
  (subscription.node.defaultChild as CfnSubscription).filterPolicyScope = FILTER_POLICY_SCOPE;
  return subscription;
}

/** A compiled policy in the CDK's form. */
export function renderedPolicy(policy: SnsFilterPolicy): Record<string, SubscriptionFilter> {
  return Object.fromEntries(
    Object.entries(policy).map(([attribute, conditions]) => [
      attribute,
      new SubscriptionFilter([...(conditions ?? [])]),
    ]),
  );
}
