// Config objects refuse unknown keys, so a typo such as `pollIntervalSecond` fails loudly instead of
// silently falling back to a default; the message names the key and the closest known one.
import * as z from 'zod';
import { closestMatch } from './closestMatch.js';

/** Builds a message for one of the object's own issues; undefined leaves it to the caller's error map. */
type OwnMessage = (issue: z.core.$ZodRawIssue) => string | undefined;

export function strictObject<Shape extends z.core.$ZodLooseShape>(shape: Shape, ownMessage?: OwnMessage) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') return unknownKeysMessage(issue.keys, known);
      return ownMessage?.(issue);
    },
  });
}

export function unknownKeysMessage(keys: readonly string[], known: readonly string[]): string {
  return keys
    .map((key) => {
      const suggestion = closestMatch(key, known);
      const hint =
        suggestion === undefined ? `; known keys: ${known.join(', ')}` : ` (did you mean "${suggestion}"?)`;
      return `unknown key ${JSON.stringify(key)}${hint}`;
    })
    .join('; ');
}
