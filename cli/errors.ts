// CLI failures and how each one ends the process: one line on stderr and an exit code, never a stack
// trace for a mistake the user can fix. The exit code and the choice between one line and a bug report
// come from the error's class (NotifierError), so a new error class is handled by construction.
import { CommanderError } from 'commander';
import { ConfigError } from '../shared/config/errors.js';
import { FixByHandError } from '../shared/errors/fixByHandError.js';
import { EXIT_FAILURE, EXIT_USAGE, NotifierError } from '../shared/errors/notifierError.js';
import { TransientError } from '../shared/errors/transientError.js';
import { StateFileTooNewError } from '../shared/store/errors.js';
import type { LogFormat } from './logging/logFormat.js';
import type { OutputSink } from './output/outputSink.js';

export { EXIT_FAILURE, EXIT_USAGE };

/** Bad input caught before any request; exits 2. */
export class CliUsageError extends FixByHandError {}

/** `poll --metrics-port` could not listen where asked (port taken, not allowed, no such address); exits 2. */
export class MetricsListenError extends CliUsageError {
  constructor(
    readonly host: string,
    readonly port: number,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(`cannot serve metrics on ${host}:${port}: ${reason}`, options);
  }
}

/**
 * An Admin API request of a one-shot command (orders, establishments) failed: its message is the one failure
 * line every command prints for it (describeApiFailure), the client's error its cause. Exits 1, as the
 * client's error would.
 */
export class ApiRequestFailedError extends TransientError {}

/**
 * Prints the failure and returns the exit code. With the json log format (a runner whose stderr goes to
 * a log pipeline), the failure is one JSON object too, so the pipeline does not choke on the last line.
 */
export function reportFailure(error: unknown, stderr: OutputSink, format: LogFormat = 'human'): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help).
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  const write = (message: string, exitCode: number, details: Record<string, unknown> = {}): number => {
    if (format === 'json') {
      const line = { time: new Date().toISOString(), level: 'error', kind: 'failure', message, exitCode };
      stderr.json({ ...line, ...details });
    } else {
      stderr.line(`meal-notifier: ${message}`);
    }
    return exitCode;
  };
  if (error instanceof NotifierError && error.userFacing) {
    return write(error.message, error.exitCode, detailsOf(error));
  }
  // Anything else is a bug in the notifier: the stack, and the causes behind it, are what a report needs.
  const stack = bugReport(error);
  const exitCode = error instanceof NotifierError ? error.exitCode : EXIT_FAILURE;
  if (format === 'json') {
    return write('unexpected failure, please report it', exitCode, { stack });
  }
  return write(`unexpected failure, please report it:\n${stack}`, exitCode);
}

/** What a log pipeline can act on beyond the message, for the failures that carry such data. */
function detailsOf(error: NotifierError): Record<string, unknown> {
  if (error instanceof ConfigError) return { problems: error.problems };
  if (error instanceof StateFileTooNewError) {
    return {
      statePath: error.path,
      fileSchemaVersion: error.fileVersion,
      programSchemaVersion: error.programVersion,
    };
  }
  return {};
}

/**
 * The stack, then the stack of each `cause` down the chain, which is often where the bug shows. Never an
 * inspected object: a value that is not an Error could hold a token, so it is only turned into text.
 */
export function bugReport(error: unknown): string {
  const lines = [(error as Error | undefined)?.stack ?? String(error)];
  const seen = new Set<unknown>([error]);
  let cause = error instanceof Error ? error.cause : undefined;
  while (cause !== undefined && !seen.has(cause)) {
    seen.add(cause);
    lines.push(`caused by: ${cause instanceof Error ? (cause.stack ?? String(cause)) : String(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return lines.join('\n');
}
