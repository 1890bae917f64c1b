// A reader that goes away (`meal-notifier orders | head -1`) ends the command quietly, as it ends cat or
// grep: no EPIPE stack trace, and the exit code the command had so far (0 unless something had failed).
// A long-running command can take the news itself instead, to stop the way it stops on SIGTERM.

export type OutputName = 'stdout' | 'stderr';
type Listener = (closed: OutputName) => void;

const listeners = new Set<Listener>();

/** Called once, by main(), before any command writes. `exit` is for tests. */
export function endQuietlyWhenOutputCloses(
  streams: Record<OutputName, NodeJS.WritableStream> = { stdout: process.stdout, stderr: process.stderr },
  exit: () => void = () => process.exit(),
): void {
  for (const name of ['stdout', 'stderr'] as const) {
    streams[name].on('error', (error: NodeJS.ErrnoException) => {
      // Anything else on a standard stream is not the reader's doing: let it surface as it did.
      if (error.code !== 'EPIPE') throw error;
      if (listeners.size === 0) {
        exit();
        return;
      }
      for (const listener of listeners) listener(name);
    });
  }
}

/**
 * While registered, a closed stdout or stderr calls `listener` (once per stream) instead of ending the
 * process. Returns the function that unregisters it.
 */
export function onOutputClosed(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
