// Captures what Powertools Logger and Metrics write (stdout and stderr) during a test, so tests can read
// the EMF blobs and check that no secret or contact detail reached a log line.
import { vi } from 'vitest';

export interface CapturedOutput {
  /** Every chunk written, in order. */
  readonly chunks: string[];
  /** The whole output as one string, for "never contains" checks. */
  text(): string;
  /** The EMF metric blobs (JSON lines with `_aws`). */
  emf(): Record<string, unknown>[];
  /** Powertools Logger's structured lines (JSON lines with a `message`, EMF blobs aside). */
  logLines(): Record<string, unknown>[];
}

/** Starts capturing; `vi.restoreAllMocks()` stops it. */
export function captureOutput(): CapturedOutput {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const jsonLines = () =>
    chunks
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    chunks,
    text: () => chunks.join(''),
    emf: () => jsonLines().filter((line) => '_aws' in line),
    logLines: () => jsonLines().filter((line) => !('_aws' in line) && typeof line.message === 'string'),
  };
}
