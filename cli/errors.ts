// CLI failures and how each one ends the process: one line on stderr and an exit code, never a stack
// trace for a mistake the user can fix.
import { CommanderError } from 'commander';
import { AdminApiError } from '../shared/api/errors.js';
import { ConfigError, MissingSecretError } from '../shared/config/errors.js';
import { SubscriberConfigError } from '../shared/delivery/errors.js';
import { StateStoreError } from '../shared/store/errors.js';

/** Bad input caught before any request; exits 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Prints the failure and returns the exit code. */
export function reportFailure(error: unknown, stderr: NodeJS.WritableStream): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help).
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (
    error instanceof CliUsageError ||
    error instanceof ConfigError ||
    error instanceof MissingSecretError ||
    error instanceof SubscriberConfigError
  ) {
    stderr.write(`meal-notifier: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof AdminApiError || error instanceof StateStoreError) {
    stderr.write(`meal-notifier: ${error.message}\n`);
    return EXIT_FAILURE;
  }
  // Anything else is a bug in the notifier: the stack is what a bug report needs.
  stderr.write(
    `meal-notifier: unexpected failure, please report it:\n${(error as Error)?.stack ?? String(error)}\n`,
  );
  return EXIT_FAILURE;
}
