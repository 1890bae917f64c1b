// What a config that passed the schema can still get wrong, found without sending anything: secret
// references whose environment variable is unset, and subscriber settings that only fail when the
// sender is built (a malformed signing secret, an unusable URL). Senders are built exactly as the runner
// builds them. Each problem names its JSON path and never a secret's value.
import { jsonPath } from '../../shared/config/configProblems.js';
import type { Config, SubscriberConfig } from '../../shared/config/configSchema.js';
import type { ConfigProblem } from '../../shared/config/errors.js';
import { subscriberSecrets } from '../../shared/config/secretReferences.js';
import { EnvSecretResolver, findMissingSecrets } from '../../shared/config/secretResolver.js';
import { buildSender } from '../../shared/delivery/buildSender.js';
import {
  SlackWebhookUrlError,
  SmtpConfigError,
  type SubscriberConfigError,
  WebhookSecretError,
  WebhookUrlError,
} from '../../shared/delivery/errors.js';
import { SubscriberSenders } from '../../shared/delivery/subscriberSenders.js';

export async function findSetupProblems(config: Config, env: NodeJS.ProcessEnv): Promise<ConfigProblem[]> {
  const missing = findMissingSecrets(config, env);
  const problems: ConfigProblem[] = missing.map(({ path, variable }) => ({
    path,
    message: `environment variable ${variable} is not set or is empty`,
  }));
  const unset = new Set(missing.map(({ variable }) => variable));
  const smtpMissing = config.smtp !== undefined && unset.has(config.smtp.url.env);
  // A subscriber whose secrets are missing is already reported; building it would only fail again.
  const buildable = config.subscribers.filter(
    (subscriber) =>
      !subscriberSecrets(subscriber).some((ref) => unset.has(ref.env)) &&
      !(subscriber.type === 'email' && smtpMissing),
  );
  const senders = new SubscriberSenders({
    // Disabled subscribers are checked too: enabling one should not be the moment its settings fail.
    subscribers: buildable.map((subscriber) => ({ ...subscriber, enabled: true })),
    smtp: config.smtp,
    secrets: new EnvSecretResolver(env),
    build: buildSender,
  });
  try {
    problems.push(...(await senders.prepare()).map((error) => subscriberProblem(config, error)));
  } finally {
    await senders.close();
  }
  return problems;
}

/** Where in the config a subscriber's refused setting is, as precisely as the error allows. */
export function subscriberProblem(config: Config, error: SubscriberConfigError): ConfigProblem {
  const index = config.subscribers.findIndex((subscriber) => subscriber.id === error.subscriberId);
  const subscriber: SubscriberConfig | undefined = config.subscribers[index];
  const at = index < 0 ? ['subscribers'] : ['subscribers', index];
  return { path: jsonPath(pathOf(error, subscriber, at)), message: error.message };
}

function pathOf(
  error: SubscriberConfigError,
  subscriber: SubscriberConfig | undefined,
  at: PropertyKey[],
): PropertyKey[] {
  if (error instanceof WebhookSecretError && subscriber?.type === 'webhook') {
    const listed = subscriber.secret.length > 1 && error.secretIndex !== undefined;
    return listed ? [...at, 'secret', error.secretIndex ?? 0] : [...at, 'secret'];
  }
  if (error instanceof WebhookUrlError) return [...at, 'url'];
  if (error instanceof SlackWebhookUrlError) return [...at, 'webhookUrl'];
  if (error instanceof SmtpConfigError && /smtp\.url/.test(error.problem)) return ['smtp', 'url'];
  return at;
}
