// The subscriber `send-test` (or any command taking --subscriber) names, or one line saying which ids the
// config has, with the nearest as a suggestion; and the secrets it needs that are not set.
import { closestMatch } from '../../shared/config/closestMatch.js';
import type { Config, SubscriberConfig } from '../../shared/config/configSchema.js';
import { findMissingSecrets, type MissingSecret } from '../../shared/config/secretResolver.js';
import { CliUsageError } from '../errors.js';

/** @throws CliUsageError naming the config file, the nearest id or the known ones */
export function findSubscriber(config: Config, id: string, configFile: string): SubscriberConfig {
  const subscriber = config.subscribers.find((candidate) => candidate.id === id);
  if (subscriber) return subscriber;
  const ids = config.subscribers.map((candidate) => candidate.id);
  const suggestion = closestMatch(id, ids);
  const hint =
    suggestion !== undefined
      ? `did you mean "${suggestion}"?`
      : ids.length > 0
        ? `its subscribers are ${ids.join(', ')}`
        : 'it has no subscribers';
  throw new CliUsageError(`${configFile} has no subscriber "${id}" (${hint})`);
}

/**
 * The unset secrets sending to this subscriber needs (its own, and smtp.url for e-mail), with the paths and
 * the rotation rule of findMissingSecrets.
 */
export function findSubscriberMissingSecrets(
  config: Config,
  subscriber: SubscriberConfig,
  env: NodeJS.ProcessEnv,
): MissingSecret[] {
  const index = config.subscribers.indexOf(subscriber);
  const own = (path: string) => path.startsWith(`$.subscribers[${index}].`);
  return findMissingSecrets(config, env).filter(
    ({ path }) => own(path) || (subscriber.type === 'email' && path === '$.smtp.url'),
  );
}
