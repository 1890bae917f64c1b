// A subscriber's filter as the SNS subscription filter policy the CDK renders: compileFilterPolicy decides
// what the policy is (the same rules the local matcher applies, refused at config time when SNS cannot
// express them); this only changes its form, each attribute becoming an exact-match string allowlist.
import { SubscriptionFilter } from 'aws-cdk-lib/aws-sns';
import type { SubscriberFilter } from '../shared/config/configSchema.js';
import { compileFilterPolicy } from '../shared/delivery/snsFilterPolicy.js';

/** The `filterPolicy` of a subscription, or undefined for a subscriber that takes every event. */
export function subscriptionFilterPolicy(
  filter: SubscriberFilter | undefined,
): Record<string, SubscriptionFilter> | undefined {
  const policy = compileFilterPolicy(filter);
  if (policy === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(policy).map(([attribute, values]) => [
      attribute,
      SubscriptionFilter.stringFilter({ allowlist: [...(values ?? [])] }),
    ]),
  );
}
