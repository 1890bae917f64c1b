// What a config that passed the schema can still get wrong, found without sending anything: secret
// references whose environment variable is unset, and subscriber settings that only fail when the
// sender is built (a malformed signing secret, an unusable URL). Each problem names its JSON path and
// never a secret's value.
import { jsonPath } from '../../shared/config/configProblems.js';
import type { Config, SubscriberConfig } from '../../shared/config/configSchema.js';
import type { ConfigProblem } from '../../shared/config/errors.js';
import { secretRefKey } from '../../shared/config/secretRef.js';
import { secretReferences } from '../../shared/config/secretReferences.js';
import { ResolvedSecrets } from '../../shared/config/secretResolver.js';
import {
  SmtpConfigError,
  SubscriberConfigError,
  WebhookSecretError,
  WebhookUrlError,
} from '../../shared/delivery/errors.js';
import { parseSlackWebhookUrl } from '../../shared/delivery/slack/slackWebhookUrl.js';
import { buildSender } from '../runtime/buildSenders.js';

export async function findSetupProblems(config: Config, env: NodeJS.ProcessEnv): Promise<ConfigProblem[]> {
  const problems: ConfigProblem[] = [];
  const values = new Map<string, string>();
  const missing = new Set<string>();
  for (const { path, ref } of secretReferences(config)) {
    const value = env[ref.env];
    if (value === undefined || value === '') {
      problems.push({ path, message: `environment variable ${ref.env} is not set or is empty` });
      missing.add(secretRefKey(ref));
    } else {
      values.set(secretRefKey(ref), value);
    }
  }
  const secrets = new ResolvedSecrets(values);
  for (const [index, subscriber] of config.subscribers.entries()) {
    // A subscriber whose secrets are missing is already reported; building it would only fail again.
    const needs = [...secretsOf(subscriber, config)];
    if (needs.some((ref) => missing.has(secretRefKey(ref)))) continue;
    problems.push(...(await subscriberProblems(subscriber, index, config, secrets)));
  }
  return problems;
}

function* secretsOf(subscriber: SubscriberConfig, config: Config) {
  if (subscriber.type === 'webhook') yield* subscriber.secret;
  if (subscriber.type === 'slack') yield subscriber.webhookUrl;
  if (subscriber.type === 'email' && config.smtp) yield config.smtp.url;
}

async function subscriberProblems(
  subscriber: SubscriberConfig,
  index: number,
  config: Config,
  secrets: ResolvedSecrets,
): Promise<ConfigProblem[]> {
  const at = ['subscribers', index];
  if (subscriber.type === 'slack') {
    // The Slack sender accepts any text and dead-letters at the first send; say it now instead.
    if (!parseSlackWebhookUrl(secrets.get(subscriber.webhookUrl))) {
      return [
        {
          path: jsonPath([...at, 'webhookUrl']),
          message: `environment variable ${subscriber.webhookUrl.env} does not hold an http:// or https:// URL (a Slack incoming-webhook URL)`,
        },
      ];
    }
  }
  try {
    const sender = buildSender(subscriber, config, secrets);
    await sender?.close();
    return [];
  } catch (error) {
    if (!(error instanceof SubscriberConfigError)) throw error;
    return [{ path: pathOf(error, subscriber, at), message: error.message }];
  }
}

function pathOf(error: SubscriberConfigError, subscriber: SubscriberConfig, at: PropertyKey[]): string {
  if (error instanceof WebhookSecretError && subscriber.type === 'webhook') {
    const listed = subscriber.secret.length > 1 && error.secretIndex !== undefined;
    return jsonPath(listed ? [...at, 'secret', error.secretIndex ?? 0] : [...at, 'secret']);
  }
  if (error instanceof WebhookUrlError) return jsonPath([...at, 'url']);
  if (error instanceof SmtpConfigError && /smtp\.url/.test(error.problem)) return jsonPath(['smtp', 'url']);
  return jsonPath(at);
}
