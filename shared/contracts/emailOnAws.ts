// What an e-mail subscriber's settings come to on AWS that they do not locally: SNS e-mail carries one
// message for every recipient, and a filter at SNS's full 150 combinations leaves no room in its policy for
// the branch `replay --dead-letters` re-sends through. Said at synth and by check-config, in these words.
import type { EmailSubscriber } from '../config/configSchema.js';
import { emailSubscriptionPolicy } from './emailSubscriptionPolicy.js';
import type { ResendSubscriptionKind } from './messageAttributes.js';
import { takesEventsAtOnce } from './snsFilterPolicy.js';

export interface EmailOnAwsWarning {
  /** Names the warning at synth (`meal-order-notifier:<code>`), so it can be acknowledged. */
  code: 'emailContactDetails' | 'emailResend';
  text: string;
}

/** The subscriber's warnings, in the order synth gives them. */
export function emailOnAwsWarnings(subscriber: EmailSubscriber): EmailOnAwsWarning[] {
  const warnings: EmailOnAwsWarning[] = [];
  if (subscriber.includeContactDetails) {
    warnings.push({
      code: 'emailContactDetails',
      text: `e-mail subscriber "${subscriber.id}" asks for contact details, which SNS e-mail never carries: one message serves every recipient`,
    });
  }
  const [address] = subscriber.to;
  if (address === undefined) return warnings;
  const kinds: ResendSubscriptionKind[] = [
    ...(takesEventsAtOnce(subscriber.filter, subscriber.digest?.types ?? []) ? ['events' as const] : []),
    ...(subscriber.digest === undefined ? [] : ['digest' as const]),
  ];
  for (const kind of kinds) {
    // The resend audience names the address, but no policy's size depends on which.
    const compiled = emailSubscriptionPolicy(subscriber, kind, address);
    if (compiled.resend) continue;
    warnings.push({
      code: 'emailResend',
      text: `e-mail subscriber "${subscriber.id}"${kind === 'digest' ? ' (its digest)' : ''} takes no re-sent e-mail: ${compiled.reason}; what SNS cannot deliver to it is forwarded by hand (docs/aws.md, "Operate it")`,
    });
  }
  return warnings;
}
