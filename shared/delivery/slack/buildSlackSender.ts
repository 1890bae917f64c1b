// A Slack subscriber's sender from its resolved incoming-webhook URL. A URL without a scheme is refused
// by the sender, naming the secret that holds it, never discovered by sending: @throws SlackWebhookUrlError.
import { type SlackSubscriber, slackSecretOf } from '../../config/configSchema.js';
import type { ClosableSender } from '../deliveryOutcome.js';
import type { HighlightWordsOf } from '../highlightWordsOf.js';
import { commonSenderOptions, type SenderTuning } from '../senderTuning.js';
import { SlackSender } from './slackSender.js';

export function buildSlackSender(
  subscriber: SlackSubscriber,
  [webhookUrl = '']: readonly string[],
  tuning: SenderTuning,
  highlightWords: HighlightWordsOf,
): ClosableSender {
  return new SlackSender({
    subscriberId: subscriber.id,
    includeContactDetails: subscriber.includeContactDetails,
    highlightWords,
    webhookUrl,
    webhookUrlSecret: slackSecretOf(subscriber).ref.env,
    ...commonSenderOptions(tuning),
    ...(tuning.slackPacer === undefined ? {} : { pacer: tuning.slackPacer }),
  });
}
