// Reads `--type`: given once or more, each a type or a comma list, in full (`order.canceled`) or short
// (`canceled`), any case. A type that is not one gets one line naming it, the nearest known type, and all.
import { closestMatch } from '../shared/config/closestMatch.js';
import { EVENT_TYPES, type EventType } from '../shared/events/notifierEvent.js';
import { CliUsageError } from './errors.js';

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

/** `canceled` for `order.canceled`, `prep_summary` for `establishment.prep_summary`. */
function shortForm(type: string): string {
  return type.slice(type.indexOf('.') + 1);
}

function knownType(written: string, original: string): EventType {
  const type = EVENT_TYPES.find((known) => known === written || shortForm(known) === written);
  if (type) return type;
  // Compared in the form it was written in, so that `cancelled` and `order.cancelled` both find it.
  const full = written.includes('.');
  const near = closestMatch(written, full ? EVENT_TYPES : EVENT_TYPES.map(shortForm));
  const match = EVENT_TYPES.find((known) => known === near || shortForm(known) === near);
  const suggestion = match === undefined ? '' : ` (did you mean ${match}?)`;
  throw new CliUsageError(
    `--type "${original}" is not an event type${suggestion}; known: ${EVENT_TYPES.join(', ')}`,
  );
}
