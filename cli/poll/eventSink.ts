// Where `poll --events` sends each new event, as one CloudEvent JSON line: stdout with `-`, or appended to
// a file, so a restarted runner adds to what the last run wrote. Without the flag, nowhere: the terminal
// is for people, and the events are in the state file and with the subscribers anyway.
import { closeSync, openSync, writeSync } from 'node:fs';
import { CliUsageError } from '../errors.js';
import { type OutputSink, stdoutSink } from '../output/outputSink.js';

export interface EventSink {
  /** Writes one event as a JSON line; a failure is told to `onError` and the runner goes on. */
  write(event: unknown): void;
  close(): void;
}

const NOWHERE: EventSink = { write: () => {}, close: () => {} };

/**
 * Opens the file at once, so a path that cannot be written stops the command before anything is polled.
 * A new file is readable by its owner only: events name customers.
 */
export function openEventSink(
  destination: string | undefined,
  onError: (message: string) => void,
  stdout: OutputSink = stdoutSink(),
): EventSink {
  if (destination === undefined) return NOWHERE;
  if (destination === '-') return { write: (event) => stdout.json(event), close: () => {} };
  let fd: number;
  try {
    fd = openSync(destination, 'a', 0o600);
  } catch (error) {
    throw new CliUsageError(`--events ${destination}: cannot open it to append events: ${reasonOf(error)}`);
  }
  let failing = false;
  return {
    write: (event) => {
      try {
        writeSync(fd, `${JSON.stringify(event)}\n`);
        failing = false;
      } catch (error) {
        // Said once per run of failures, not once per event: a full disk would otherwise flood the log.
        if (!failing) onError(`--events ${destination}: cannot write events to it: ${reasonOf(error)}`);
        failing = true;
      }
    },
    close: () => closeSync(fd),
  };
}

const REASONS: Record<string, string> = {
  ENOENT: 'its directory does not exist',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
  ENOSPC: 'no space left on the device',
};

/** Why a file could not be opened or written, in words where the code is a common one. */
export function reasonOf(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return (code && REASONS[code]) ?? code ?? message;
}
