// Parsers for flag values commander hands over as text: each refuses a bad value with one line naming
// the flag, before anything starts.
import { closestMatch } from '../shared/config/closestMatch.js';
import { isValidTimeZone } from '../shared/time/calendarDate.js';
import { CliUsageError } from './errors.js';

export function integerFlag(flag: string, text: string, min: number, max: number): number {
  const value = /^-?\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(Number.isSafeInteger(value) && value >= min && value <= max)) {
    throw new CliUsageError(`${flag} "${text}" must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function numberFlag(flag: string, text: string, min: number, max: number): number {
  const value = /^\d+(?:\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new CliUsageError(`${flag} "${text}" must be a number from ${min} to ${max}`);
  return value;
}

export function choiceFlag<T extends string>(flag: string, text: string, choices: readonly T[]): T {
  const choice = choices.find((candidate) => candidate === text);
  if (!choice) throw new CliUsageError(`${flag} "${text}" must be one of ${choices.join(', ')}`);
  return choice;
}

/** Like choiceFlag, with the nearest choice suggested: for long words such as event types. */
export function suggestingChoiceFlag<T extends string>(flag: string, text: string, choices: readonly T[]): T {
  const choice = choices.find((candidate) => candidate === text);
  if (choice) return choice;
  const suggestion = closestMatch(text, choices);
  const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
  throw new CliUsageError(`${flag} "${text}" is unknown${hint}; it must be one of ${choices.join(', ')}`);
}

export function timeZoneFlag(text: string): string {
  if (!isValidTimeZone(text)) {
    throw new CliUsageError(`--time-zone "${text}" is not an IANA time zone such as Europe/Lisbon`);
  }
  return text;
}
