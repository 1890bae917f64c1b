// The filter policy of one e-mail subscription (a recipient's events, or its subscriber's digests), with the
// branch for the e-mails re-sent to it alone when SNS allows it: what the stack deploys, and what
// `replay --dead-letters` expects to find deployed. One decision, for both.
import { catchUpAfterMs } from '../config/catchUpAfter.js';
import type { EmailSubscriber } from '../config/configSchema.js';
import type { ResendSubscriptionKind } from './messageAttributes.js';
import {
  compileFilterPolicy,
  digestFilterPolicy,
  type EmailSubscriptionPolicy,
  withResendBranch,
} from './snsFilterPolicy.js';

/** A subscriber's catch-up threshold in seconds, as its subscription policy names it. */
function catchUpAfterSecondsOf(subscriber: EmailSubscriber): number | undefined {
  const ms = catchUpAfterMs(subscriber);
  return ms === undefined ? undefined : Math.round(ms / 1000);
}

/**
 * The policy of `address`'s subscription of `kind`. @throws FilterPolicyError when SNS cannot express the
 * subscriber's filter (the config schema refuses such a config first)
 */
export function emailSubscriptionPolicy(
  subscriber: EmailSubscriber,
  kind: ResendSubscriptionKind,
  address: string,
): EmailSubscriptionPolicy {
  const policy =
    kind === 'digest'
      ? digestFilterPolicy(subscriber.id)
      : compileFilterPolicy(
          subscriber.filter,
          undefined,
          subscriber.digest?.types ?? [],
          catchUpAfterSecondsOf(subscriber),
        );
  return withResendBranch(policy, { subscriberId: subscriber.id, kind, address });
}
