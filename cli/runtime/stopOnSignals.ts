// SIGINT and SIGTERM as a stop signal for the long-running commands: the first asks for a graceful stop
// (finish what is in flight, then exit 0); a second one, for someone who cannot wait, exits at once.
// Even then nothing is half-written: every commit is one SQLite transaction.

export interface SignalStop {
  signal: AbortSignal;
  /** The graceful stop a first signal asks for, for another reason (the events' reader went away). */
  requestStop(): void;
  /** Stops listening (call once the command is done). */
  dispose(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof SIGNALS)[number];
/** 128 + the signal number, as shells report a process killed by it. */
const FORCED_EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };
/**
 * One Ctrl-C can arrive twice: the terminal signals the whole foreground process group, and npm (`npm
 * start`, `npx`) forwards the signal it got to its child as well, a few milliseconds later. The same
 * signal this soon after the first is that echo, not someone asking again.
 */
export const ECHO_WINDOW_MS = 500;

export function stopOnSignals(onStopping: (signal: NodeJS.Signals) => void): SignalStop {
  const controller = new AbortController();
  let first: { signal: StopSignal; at: number } | undefined;
  let disposed = false;
  const onSignal = (signal: StopSignal) => {
    const at = performance.now();
    if (first && signal === first.signal && at - first.at < ECHO_WINDOW_MS) return;
    if (controller.signal.aborted) process.exit(FORCED_EXIT_CODES[signal]);
    first = { signal, at };
    onStopping(signal);
    controller.abort();
  };
  for (const name of SIGNALS) process.on(name, onSignal);
  return {
    signal: controller.signal,
    requestStop: () => controller.abort(),
    dispose: () => {
      if (disposed) return;
      disposed = true;
      for (const name of SIGNALS) process.off(name, onSignal);
      // The echo of the stop's Ctrl-C may still be on its way (on a loaded machine npm or our own launcher
      // forwards it late): with no listener left it would kill the process on its way out, as if forced.
      if (first === undefined) return;
      const echoed = first.signal;
      const swallow = () => {};
      process.on(echoed, swallow);
      setTimeout(() => process.off(echoed, swallow), ECHO_WINDOW_MS).unref();
    },
  };
}
