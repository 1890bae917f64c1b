// One sender per enabled subscriber of the config, with its secrets resolved. Building a sender is where
// settings that only fail at construction (a malformed signing secret, an unusable URL) are refused.
import type { Config, SubscriberConfig } from '../../shared/config/configSchema.js';
import type { ResolvedSecrets } from '../../shared/config/secretResolver.js';
import type { EventSender } from '../../shared/delivery/deliveryOutcome.js';
import { SmtpEmailSender } from '../../shared/delivery/email/smtpSender.js';
import { SlackSender } from '../../shared/delivery/slack/slackSender.js';
import { WebhookSender } from '../../shared/delivery/webhook/webhookSender.js';

export interface ClosableSender extends EventSender {
  close(): Promise<void>;
}

export function buildSenders(config: Config, secrets: ResolvedSecrets): Map<string, ClosableSender> {
  const senders = new Map<string, ClosableSender>();
  for (const subscriber of config.subscribers) {
    if (!subscriber.enabled) continue;
    const sender = buildSender(subscriber, config, secrets);
    if (sender) senders.set(subscriber.id, sender);
  }
  return senders;
}

/** Throws SubscriberConfigError when the subscriber's settings cannot work. */
export function buildSender(
  subscriber: SubscriberConfig,
  config: Config,
  secrets: ResolvedSecrets,
): ClosableSender | undefined {
  const common = { subscriberId: subscriber.id, includeContactDetails: subscriber.includeContactDetails };
  switch (subscriber.type) {
    case 'webhook':
      return new WebhookSender({
        ...common,
        url: subscriber.url,
        secrets: subscriber.secret.map((ref) => secrets.get(ref)),
      });
    case 'slack':
      return new SlackSender({ ...common, webhookUrl: secrets.get(subscriber.webhookUrl) });
    case 'email': {
      // The config schema requires smtp whenever an e-mail subscriber exists.
      const smtp = config.smtp;
      if (!smtp) return undefined;
      return new SmtpEmailSender({
        ...common,
        to: subscriber.to,
        from: smtp.from,
        smtpUrl: secrets.get(smtp.url),
      });
    }
  }
}
