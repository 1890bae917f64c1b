// Slack subscribers on AWS: the incoming-webhook URL is the subscriber's secret, read from Secrets
// Manager, and the same SlackSender as local delivery posts to it (paced per URL within the container).
import type { SlackSubscriber } from '../../shared/config/configSchema.js';
import { SlackSender } from '../../shared/delivery/slack/slackSender.js';
import { parseSlackWebhookUrl } from '../../shared/delivery/slack/slackWebhookUrl.js';
import type { DeliveryChannel } from '../shared/subscriberSenders.js';
import { SlackWebhookSecretError } from './errors.js';

export const slackChannel: DeliveryChannel<SlackSubscriber> = {
  type: 'slack',
  resolveSecrets: async (subscriber, secrets) => [
    await secrets.resolve(subscriber.webhookUrl, `subscribers[${subscriber.id}].webhookUrl`),
  ],
  build: (subscriber, [webhookUrl = '']) => {
    // SlackSender calls an unusable URL "gone", which would disable the subscriber for good; a secret put
    // wrong is the operator's to fix, so it is refused here and retried on the schedule meanwhile.
    if (!parseSlackWebhookUrl(webhookUrl))
      throw new SlackWebhookSecretError(subscriber.id, subscriber.webhookUrl.env);
    return new SlackSender({
      subscriberId: subscriber.id,
      webhookUrl,
      includeContactDetails: subscriber.includeContactDetails,
    });
  },
};
