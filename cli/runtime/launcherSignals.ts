// The stop signals bin/meal-notifier.js relays when it runs the CLI on the pinned Node.js: a message over
// the IPC channel rather than a second kill. A Ctrl-C (or a process manager's group-wide SIGTERM) reaches
// both processes; as a message, the launcher's copy is told apart from a second signal however late it
// comes, where a signal is only told apart by its timing.

export type RelayedStopSignal = 'SIGINT' | 'SIGTERM';
type Listener = (signal: RelayedStopSignal) => void;

/** The messages bin/meal-notifier.js reads and sends (it cannot import this module: it runs on any Node.js). */
const LISTENING = 'meal-notifier:listening';
const RELAYED = 'meal-notifier:relayed-signal';

const listeners = new Set<Listener>();

/** Called once, by main(), before any command runs. Does nothing unless the launcher started us. */
export function listenToLauncher(channelProcess: NodeJS.Process = process): void {
  if (channelProcess.channel === undefined) return;
  channelProcess.on('message', (message: unknown) => {
    const signal = relayedSignal(message);
    if (signal === undefined) return;
    // No command stops on it (a one-shot command): the signal's own action, as if sent here.
    if (listeners.size === 0) channelProcess.kill(channelProcess.pid, signal);
    for (const listener of listeners) listener(signal);
  });
  // The channel is only for these messages: it must not keep the process alive once the command is done.
  channelProcess.channel.unref();
  // Until now the launcher passes signals on as signals: a message sent before this listener was here
  // would have been lost.
  channelProcess.send?.({ type: LISTENING });
}

/** While registered, a relayed SIGINT or SIGTERM calls `listener`. Returns the function that unregisters it. */
export function onRelayedSignal(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function relayedSignal(message: unknown): RelayedStopSignal | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { type, signal } = message as { type?: unknown; signal?: unknown };
  if (type !== RELAYED || (signal !== 'SIGINT' && signal !== 'SIGTERM')) return undefined;
  return signal;
}
