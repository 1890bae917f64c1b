// Webhook subscribers on AWS: signed with every one of the subscriber's secrets (several during a
// rotation), read from Secrets Manager, by the same WebhookSender as local delivery.
import type { WebhookSubscriber } from '../../shared/config/configSchema.js';
import { WebhookSender } from '../../shared/delivery/webhook/webhookSender.js';
import type { DeliveryChannel } from '../shared/subscriberSenders.js';

export const webhookChannel: DeliveryChannel<WebhookSubscriber> = {
  type: 'webhook',
  resolveSecrets: (subscriber, secrets) =>
    Promise.all(
      subscriber.secret.map((ref, index) =>
        secrets.resolve(ref, `subscribers[${subscriber.id}].secret[${index}]`),
      ),
    ),
  build: (subscriber, secretValues) =>
    new WebhookSender({
      subscriberId: subscriber.id,
      url: subscriber.url,
      secrets: secretValues,
      includeContactDetails: subscriber.includeContactDetails,
    }),
};
