// A Slack subscriber's sender from its resolved incoming-webhook URL. A URL without a scheme is refused
// here, naming the secret that holds it, never discovered by sending: @throws SlackWebhookUrlError.
import type { SlackSubscriber } from '../../config/configSchema.js';
import type { ClosableSender } from '../deliveryOutcome.js';
import { SlackWebhookUrlError } from '../errors.js';
import { commonSenderOptions, type SenderTuning } from '../senderTuning.js';
import { SlackSender } from './slackSender.js';
import { parseSlackWebhookUrl } from './slackWebhookUrl.js';

export function buildSlackSender(
  subscriber: SlackSubscriber,
  [webhookUrl = '']: readonly string[],
  tuning: SenderTuning = {},
): ClosableSender {
  if (!parseSlackWebhookUrl(webhookUrl))
    throw new SlackWebhookUrlError(subscriber.id, subscriber.webhookUrl.env);
  return new SlackSender({
    subscriberId: subscriber.id,
    includeContactDetails: subscriber.includeContactDetails,
    webhookUrl,
    ...commonSenderOptions(tuning),
    ...(tuning.slackPacer === undefined ? {} : { pacer: tuning.slackPacer }),
  });
}
