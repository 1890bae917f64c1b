// One sender per enabled subscriber of the config, with its secrets resolved.
import type { Config } from '../../shared/config/configSchema.js';
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
    const common = { subscriberId: subscriber.id, includeContactDetails: subscriber.includeContactDetails };
    switch (subscriber.type) {
      case 'webhook':
        senders.set(
          subscriber.id,
          new WebhookSender({
            ...common,
            url: subscriber.url,
            secrets: subscriber.secret.map((ref) => secrets.get(ref)),
          }),
        );
        break;
      case 'slack':
        senders.set(
          subscriber.id,
          new SlackSender({ ...common, webhookUrl: secrets.get(subscriber.webhookUrl) }),
        );
        break;
      case 'email': {
        // The config schema requires smtp whenever an e-mail subscriber exists.
        const smtp = config.smtp;
        if (!smtp) continue;
        senders.set(
          subscriber.id,
          new SmtpEmailSender({
            ...common,
            to: subscriber.to,
            from: smtp.from,
            smtpUrl: secrets.get(smtp.url),
          }),
        );
        break;
      }
    }
  }
  return senders;
}
