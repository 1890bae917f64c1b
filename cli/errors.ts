// CLI failures and how each one ends the process: one line on stderr and an exit code, never a stack
// trace for a mistake the user can fix.
import { CommanderError } from 'commander';
import { AdminApiError } from '../shared/api/errors.js';
import { ConfigError, MissingSecretError } from '../shared/config/errors.js';
import { SubscriberConfigError } from '../shared/delivery/errors.js';
import { ReplayRefusedError, StackAccessError, StackOutputsError } from '../shared/operations/errors.js';
import { StateFileError, StateFileTooNewError, StateStoreError } from '../shared/store/errors.js';
import { SqliteAddonMismatchError } from '../shared/store/sqlite/sqliteErrors.js';
import type { LogFormat } from './logging/logFormat.js';

/** Bad input caught before any request; exits 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** `poll --metrics-port` could not listen where asked (port taken, not allowed, no such address); exits 2. */
export class MetricsListenError extends CliUsageError {
  constructor(
    readonly host: string,
    readonly port: number,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(`cannot serve metrics on ${host}:${port}: ${reason}`);
    this.name = 'MetricsListenError';
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

export const EXIT_FAILURE = 1;
/** Something to fix first (input, config, the state file's place): starting again as is cannot help. */
export const EXIT_USAGE = 2;

/**
 * Prints the failure and returns the exit code. With the json log format (a runner whose stderr goes to
 * a log pipeline), the failure is one JSON object too, so the pipeline does not choke on the last line.
 */
export function reportFailure(
  error: unknown,
  stderr: NodeJS.WritableStream,
  format: LogFormat = 'human',
): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help).
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  const write = (message: string, exitCode: number, details: Record<string, unknown> = {}): number => {
    if (format === 'json') {
      const line = { time: new Date().toISOString(), level: 'error', kind: 'failure', message, exitCode };
      stderr.write(`${JSON.stringify({ ...line, ...details })}\n`);
    } else {
      stderr.write(`meal-notifier: ${message}\n`);
    }
    return exitCode;
  };
  if (error instanceof ConfigError) {
    return write(error.message, EXIT_USAGE, { problems: error.problems });
  }
  // Restarting cannot fix these, so exit 2 like a config mistake: a process manager stops retrying.
  if (error instanceof StateFileTooNewError) {
    return write(error.message, EXIT_USAGE, {
      statePath: error.path,
      fileSchemaVersion: error.fileVersion,
      programSchemaVersion: error.programVersion,
    });
  }
  if (error instanceof SqliteAddonMismatchError) return write(error.message, EXIT_USAGE);
  if (
    error instanceof CliUsageError ||
    (error instanceof StateFileError && !error.retryable) ||
    error instanceof MissingSecretError ||
    error instanceof SubscriberConfigError ||
    error instanceof ReplayRefusedError
  ) {
    return write(error.message, EXIT_USAGE);
  }
  if (
    error instanceof AdminApiError ||
    error instanceof StateStoreError ||
    error instanceof StackAccessError ||
    error instanceof StackOutputsError
  ) {
    return write(error.message, EXIT_FAILURE);
  }
  // Anything else is a bug in the notifier: the stack is what a bug report needs.
  const stack = (error as Error)?.stack ?? String(error);
  if (format === 'json') {
    return write('unexpected failure, please report it', EXIT_FAILURE, { stack });
  }
  return write(`unexpected failure, please report it:\n${stack}`, EXIT_FAILURE);
}
