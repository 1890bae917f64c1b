// A webhook subscriber's sender from its settings and resolved signing secrets (the ones set, during a
// rotation). The URL and every secret are checked here: @throws WebhookUrlError, WebhookSecretError.
import type { WebhookSubscriber } from '../../config/configSchema.js';
import type { ClosableSender } from '../deliveryOutcome.js';
import { commonSenderOptions, type SenderTuning } from '../senderTuning.js';
import { WebhookSender } from './webhookSender.js';

export function buildWebhookSender(
  subscriber: WebhookSubscriber,
  secretValues: readonly string[],
  tuning: SenderTuning = {},
): ClosableSender {
  return new WebhookSender({
    subscriberId: subscriber.id,
    includeContactDetails: subscriber.includeContactDetails,
    url: subscriber.url,
    secrets: secretValues,
    ...commonSenderOptions(tuning),
  });
}
