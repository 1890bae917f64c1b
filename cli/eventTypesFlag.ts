// Reads `--type`: given once or more, each a type or a comma list, in full (`order.canceled`) or short
// (`canceled`), any case. A type that is not one gets one line naming it, the nearest known type, and all.
import { closestMatch } from '../shared/config/closestMatch.js';
import { EVENT_TYPES, type EventType } from '../shared/events/orderEvent.js';
import { CliUsageError } from './errors.js';

const PREFIX = 'order.';

export function eventTypesFlag(values: readonly string[]): EventType[] {
  const types = new Set<EventType>();
  for (const value of values) {
    for (const part of value.split(',')) {
      const written = part.trim().toLowerCase();
      if (written === '') {
        throw new CliUsageError(`--type "${value}" has an empty type; known: ${EVENT_TYPES.join(', ')}`);
      }
      types.add(knownType(written, part.trim()));
    }
  }
  return [...types];
}

function knownType(written: string, original: string): EventType {
  const type = EVENT_TYPES.find((known) => known === written || known === `${PREFIX}${written}`);
  if (type) return type;
  // Compared in the form it was written in, so that `cancelled` and `order.cancelled` both find it.
  const candidates = written.startsWith(PREFIX)
    ? EVENT_TYPES
    : EVENT_TYPES.map((known) => known.slice(PREFIX.length));
  const near = closestMatch(written, candidates);
  const suggestion =
    near === undefined ? '' : ` (did you mean ${near.startsWith(PREFIX) ? near : PREFIX + near}?)`;
  throw new CliUsageError(
    `--type "${original}" is not an event type${suggestion}; known: ${EVENT_TYPES.join(', ')}`,
  );
}
