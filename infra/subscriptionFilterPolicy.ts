// A subscriber's filter as the SNS subscription filter policy the CDK renders: compileFilterPolicy decides
// what the policy is (the same rules the local matcher applies, refused at config time when SNS cannot
// express them); this only changes its form, each attribute becoming its list of conditions (exact
// strings, or one `anything-but`) as SNS reads them.
import { SubscriptionFilter } from 'aws-cdk-lib/aws-sns';
import type { SubscriberFilter } from '../shared/config/configSchema.js';
import { compileFilterPolicy, type SnsFilterPolicy } from '../shared/contracts/snsFilterPolicy.js';

/** The `filterPolicy` of a subscription to the events `filter` lets through at once. */
export function subscriptionFilterPolicy(
  filter: SubscriberFilter | undefined,
  heldTypes?: readonly string[],
): Record<string, SubscriptionFilter> {
  return renderedPolicy(compileFilterPolicy(filter, undefined, heldTypes));
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
