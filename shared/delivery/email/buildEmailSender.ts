// An e-mail subscriber's sender through the config's SMTP server, from its resolved URL. Recipients, the
// sender address and the URL are checked here: @throws SmtpConfigError.
import type { EmailSubscriber, SmtpConfig } from '../../config/configSchema.js';
import type { ClosableSender } from '../deliveryOutcome.js';
import { SmtpConfigError } from '../errors.js';
import type { HighlightWordsOf } from '../highlightWordsOf.js';
import type { SenderTuning } from '../senderTuning.js';
import { SmtpEmailSender } from './smtpSender.js';

export function buildEmailSender(
  subscriber: EmailSubscriber,
  [smtpUrl = '']: readonly string[],
  smtp: SmtpConfig | undefined,
  tuning: SenderTuning,
  highlightWords: HighlightWordsOf,
): ClosableSender {
  if (!smtp) throw new SmtpConfigError(subscriber.id, 'the config has no smtp section');
  return new SmtpEmailSender({
    subscriberId: subscriber.id,
    includeContactDetails: subscriber.includeContactDetails,
    highlightWords,
    to: subscriber.to,
    from: smtp.from,
    smtpUrl,
    ...(tuning.timeoutMs === undefined ? {} : { timeoutMs: tuning.timeoutMs }),
  });
}
