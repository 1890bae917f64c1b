// Builds any subscriber's sender from its settings and resolved secrets. Every setting that cannot work
// (a malformed signing secret, a URL without a scheme, no recipients) is refused with a
// SubscriberConfigError, at start-up or by check-config, never discovered by sending. The AWS delivery
// functions use the one builder of their subscriber type, so their bundles carry one sender.
import type { SmtpConfig, SubscriberConfig } from '../config/configSchema.js';
import type { ClosableSender } from './deliveryOutcome.js';
import { buildEmailSender } from './email/buildEmailSender.js';
import type { HighlightWordsOf } from './highlightWordsOf.js';
import type { SenderTuning } from './senderTuning.js';
import { buildSlackSender } from './slack/buildSlackSender.js';
import { buildWebhookSender } from './webhook/buildWebhookSender.js';

/**
 * @param secretValues what resolveSenderSecrets gave, in the subscriber's order
 * @param highlightWords each organization's words that flag a note in Slack and e-mail (a webhook carries
 * the event as it is)
 */
export type SenderBuilder = (
  subscriber: SubscriberConfig,
  secretValues: readonly string[],
  smtp: SmtpConfig | undefined,
  tuning: SenderTuning,
  highlightWords: HighlightWordsOf,
) => ClosableSender;

export const buildSender: SenderBuilder = (subscriber, secretValues, smtp, tuning, highlightWords) => {
  switch (subscriber.type) {
    case 'webhook':
      return buildWebhookSender(subscriber, secretValues, tuning);
    case 'slack':
      return buildSlackSender(subscriber, secretValues, tuning, highlightWords);
    case 'email':
      return buildEmailSender(subscriber, secretValues, smtp, tuning, highlightWords);
  }
};
