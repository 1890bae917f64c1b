// The flags several commands share, and parsers for flag values commander hands over as text: each
// refuses a bad value with one line naming the flag, before anything starts.
import { type Command, Option } from 'commander';
import { closestMatch } from '../shared/config/closestMatch.js';
import { isValidTimeZone } from '../shared/time/calendarDate.js';
import { CliUsageError } from './errors.js';

/** The --config help of commands that also work on a deployed stack. */
export const STACK_CONFIG = 'config file (JSON); with --stack, the one the stack was deployed with';

/** Names the config file for every command that reads one, when --config is not given. */
export const CONFIG_ENV = 'MEAL_NOTIFIER_CONFIG';

/**
 * Adds `--config FILE`, or the MEAL_NOTIFIER_CONFIG variable, to a command that reads a config: the one way
 * every command names it. Unless `optional`, a command given neither fails before anything starts.
 */
export function withConfigOption(
  command: Command,
  description = 'config file (JSON)',
  { optional = false }: { optional?: boolean } = {},
): Command {
  command.addOption(new Option('--config <file>', description).env(CONFIG_ENV));
  if (!optional) command.hook('preAction', (_command, action) => void configFileOf(action));
  return command;
}

/** The config file a command was given, by --config or MEAL_NOTIFIER_CONFIG. */
export function configFileOf(command: Command): string {
  const file: unknown = command.opts().config;
  if (typeof file !== 'string' || file === '') {
    throw new CliUsageError(`no config file: give --config FILE, or set ${CONFIG_ENV}`);
  }
  return file;
}

/** Whether --config was given on the command line rather than by MEAL_NOTIFIER_CONFIG. */
export function configGivenAsFlag(command: Command): boolean {
  return command.getOptionValueSource('config') === 'cli';
}

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
