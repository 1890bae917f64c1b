// The subscriber `send-test` (or any command taking --subscriber) names, or one line saying which ids the
// config has, with the nearest as a suggestion.
import { closestMatch } from '../../shared/config/closestMatch.js';
import type { Config, SubscriberConfig } from '../../shared/config/configSchema.js';
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
