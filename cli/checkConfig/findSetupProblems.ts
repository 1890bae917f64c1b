// What a config that passed the schema can still get wrong, found without sending anything: secret
// references whose environment variable is unset, and subscriber settings that only fail when the
// sender is built (a malformed signing secret, an unusable URL). Senders are built exactly as the runner
// builds them; one whose secrets are not set is built with stand-ins for them, so its other settings are
// checked in the same run. Each problem names its JSON path and never a secret's value.
import { jsonPath } from '../../shared/config/configProblems.js';
import type { Config, SmtpConfig, SubscriberConfig } from '../../shared/config/configSchema.js';
import type { ConfigProblem } from '../../shared/config/errors.js';
import { subscriberPathIn, subscriberSecrets } from '../../shared/config/secretReferences.js';
import {
  EnvSecretResolver,
  findMissingSecrets,
  missingSecretProblem,
} from '../../shared/config/secretResolver.js';
import { buildSender } from '../../shared/delivery/buildSender.js';
import {
  SlackBotTokenError,
  SlackWebhookUrlError,
  SmtpConfigError,
  SubscriberConfigError,
  WebhookSecretError,
  WebhookUrlError,
} from '../../shared/delivery/errors.js';
import { defaultHighlightWords, highlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import { SubscriberSenders } from '../../shared/delivery/subscriberSenders.js';

export async function findSetupProblems(config: Config, env: NodeJS.ProcessEnv): Promise<ConfigProblem[]> {
  const missing = findMissingSecrets(config, env);
  const problems: ConfigProblem[] = missing.map(missingSecretProblem);
  const unset = new Set(missing.map(({ variable }) => variable));
  const smtpMissing = config.smtp !== undefined && unset.has(config.smtp.url.env);
  const lacksSecrets = (subscriber: SubscriberConfig) =>
    subscriberSecrets(subscriber).some((ref) => unset.has(ref.env)) ||
    (subscriber.type === 'email' && smtpMissing);
  const buildable = config.subscribers.filter((subscriber) => !lacksSecrets(subscriber));
  for (const subscriber of config.subscribers.filter(lacksSecrets)) {
    const refused = await settingProblem(subscriber, config.smtp);
    if (refused) problems.push(subscriberProblem(config, refused));
  }
  const senders = new SubscriberSenders({
    // Disabled subscribers are checked too: enabling one should not be the moment its settings fail.
    subscribers: buildable.map((subscriber) => ({ ...subscriber, enabled: true })),
    smtp: config.smtp,
    secrets: new EnvSecretResolver(env),
    build: buildSender,
    highlightWords: highlightWordsOf(config.organizations),
    subscriberPath: subscriberPathIn(config.subscribers),
  });
  try {
    problems.push(...(await senders.prepare()).map((error) => subscriberProblem(config, error)));
  } finally {
    await senders.close();
  }
  return problems;
}

/**
 * Stand-ins that every sender accepts, for secrets not set: their absence is already a problem, and with
 * them, what the sender refuses is a setting of the config itself (a webhook URL carrying a password).
 */
const STAND_IN_SIGNING_SECRET = `whsec_${Buffer.alloc(32).toString('base64')}`;
const STAND_IN_SLACK_URL = 'https://hooks.slack.com/services/stand-in';
const STAND_IN_SMTP_URL = 'smtp://stand-in.invalid';
const STAND_IN_BOT_TOKEN = 'xoxb-stand-in';

/** The subscriber's refused setting, checked with stand-ins for its secrets; undefined when none is. */
async function settingProblem(
  subscriber: SubscriberConfig,
  smtp: SmtpConfig | undefined,
): Promise<SubscriberConfigError | undefined> {
  const standIns =
    subscriber.type === 'webhook'
      ? subscriber.secret.map(() => STAND_IN_SIGNING_SECRET)
      : [
          subscriber.type === 'slack'
            ? subscriber.botToken === undefined
              ? STAND_IN_SLACK_URL
              : STAND_IN_BOT_TOKEN
            : STAND_IN_SMTP_URL,
        ];
  try {
    // Building opens nothing: the HTTP client and the SMTP pool connect on the first send.
    await buildSender(subscriber, standIns, smtp, {}, defaultHighlightWords).close();
    return undefined;
  } catch (error) {
    if (error instanceof SubscriberConfigError) return error;
    throw error;
  }
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
  if (error instanceof SlackBotTokenError) return [...at, 'botToken'];
  if (error instanceof SmtpConfigError && /smtp\.url/.test(error.problem)) return ['smtp', 'url'];
  return at;
}
