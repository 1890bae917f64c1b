// SIGINT and SIGTERM as a stop signal for the long-running commands: the first asks for a graceful stop
// (finish what is in flight, then exit 0); a second one, for someone who cannot wait, exits at once.
// Even then nothing is half-written: every commit is one SQLite transaction.
import { onRelayedSignal } from './launcherSignals.js';

export interface SignalStop {
  signal: AbortSignal;
  /** The graceful stop a first signal asks for, for another reason (the events' reader went away). */
  requestStop(): void;
  /** The command is done: signals stop nothing from now on (call once, when it returns). */
  dispose(): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof SIGNALS)[number];
/** 128 + the signal number, as shells report a process killed by it. */
const FORCED_EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };
/**
 * One Ctrl-C can arrive twice: the terminal signals the whole foreground process group, and npm (`npm
 * start`, `npx`) forwards the signal it got to its child as well, a few milliseconds later. The same
 * signal this soon after the first is that echo, not someone asking again. (Our own launcher relays its
 * copy as a message instead, counted exactly: cli/runtime/launcherSignals.ts.)
 */
export const ECHO_WINDOW_MS = 500;

export function stopOnSignals(
  onStopping: (signal: NodeJS.Signals) => void,
  onRelayed: typeof onRelayedSignal = onRelayedSignal,
): SignalStop {
  const controller = new AbortController();
  // Each signal's copies, sent here and relayed by the launcher: one Ctrl-C gives one of each, or only
  // one of them, so a stop was asked for as many times as the larger count.
  const copies = { SIGINT: { sent: 0, relayed: 0 }, SIGTERM: { sent: 0, relayed: 0 } };
  const asked = () =>
    SIGNALS.reduce((sum, name) => sum + Math.max(copies[name].sent, copies[name].relayed), 0);
  let firstSent: { signal: StopSignal; at: number } | undefined;
  let done = false;

  const count = (signal: StopSignal, copy: 'sent' | 'relayed') => {
    // The command is done and the process on its way out with its own exit code: a late copy of the
    // stop's signal (npm's or the launcher's on a loaded machine) must not turn that into a kill.
    if (done) return;
    const before = asked();
    copies[signal][copy] += 1;
    if (asked() === before) return;
    if (controller.signal.aborted) process.exit(FORCED_EXIT_CODES[signal]);
    onStopping(signal);
    controller.abort();
  };
  const onSignal = (signal: StopSignal) => {
    const at = performance.now();
    if (firstSent && signal === firstSent.signal && at - firstSent.at < ECHO_WINDOW_MS) return;
    firstSent ??= { signal, at };
    count(signal, 'sent');
  };
  const onRelayedSignalCopy = (signal: StopSignal) => count(signal, 'relayed');

  for (const name of SIGNALS) process.on(name, onSignal);
  const stopRelaying = onRelayed(onRelayedSignalCopy);
  const stopListening = () => {
    for (const name of SIGNALS) process.off(name, onSignal);
    stopRelaying();
  };
  return {
    signal: controller.signal,
    requestStop: () => controller.abort(),
    dispose: () => {
      if (done) return;
      done = true;
      // After a signal the listeners stay, ignoring what comes (they keep nothing alive): without them a
      // late copy would kill the process on its way out, as if forced.
      if (asked() === 0) stopListening();
    },
  };
}
