// The stop signals of the long-running commands: the first asks for a graceful stop, the same signal
// again within moments is the echo of that one Ctrl-C (npm forwards what the terminal already sent to
// its whole group), the launcher's relayed copy of a signal is the same stop however late, and a signal
// after that exits at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ECHO_WINDOW_MS, type SignalStop, stopOnSignals } from '../../../cli/runtime/stopOnSignals.js';

describe('stopOnSignals', () => {
  let stop: SignalStop;
  let exit: ReturnType<typeof vi.spyOn>;
  const stopping: string[] = [];
  let relay: (signal: 'SIGINT' | 'SIGTERM') => void;
  let listenersBefore: Map<string, unknown[]>;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
    exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    stopping.length = 0;
    listenersBefore = new Map(
      ['SIGINT', 'SIGTERM'].map((name) => [name, process.listeners(name as 'SIGINT')]),
    );
    stop = stopOnSignals(
      (signal) => stopping.push(signal),
      (listener) => {
        relay = listener;
        return () => {};
      },
    );
  });

  afterEach(() => {
    stop.dispose();
    // What a stop after a signal leaves listening in a real process, which ends soon after.
    for (const [name, before] of listenersBefore) {
      for (const listener of process.listeners(name as 'SIGINT')) {
        if (!before.includes(listener)) process.off(name, listener);
      }
    }
    exit.mockRestore();
    vi.useRealTimers();
  });

  it('asks for a graceful stop on the first signal', () => {
    process.emit('SIGINT', 'SIGINT');
    expect(stop.signal.aborted).toBe(true);
    expect(stopping).toEqual(['SIGINT']);
    expect(exit).not.toHaveBeenCalled();
  });

  it('takes the same signal again within moments for the echo of the first (npm forwarding a Ctrl-C)', () => {
    process.emit('SIGINT', 'SIGINT');
    vi.advanceTimersByTime(20);
    process.emit('SIGINT', 'SIGINT');
    expect(exit).not.toHaveBeenCalled();
    expect(stopping).toEqual(['SIGINT']);
  });

  it('exits at once on a second Ctrl-C after that, with the code of a process the signal killed', () => {
    process.emit('SIGINT', 'SIGINT');
    vi.advanceTimersByTime(ECHO_WINDOW_MS);
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(130);
  });

  it('exits at once on another signal, however soon', () => {
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGTERM', 'SIGTERM');
    expect(exit).toHaveBeenCalledWith(143);
  });

  it('ignores every signal once the command is done: a late copy must not kill it on its way out', () => {
    const before = process.listenerCount('SIGINT');
    process.emit('SIGINT', 'SIGINT');
    stop.dispose();
    // A listener is left, so the late echo does not kill the process with the default action...
    expect(process.listenerCount('SIGINT')).toBe(before);
    vi.advanceTimersByTime(60_000);
    process.emit('SIGINT', 'SIGINT');
    relay('SIGINT');
    process.emit('SIGTERM', 'SIGTERM');
    // ...nor exit it as forced.
    expect(exit).not.toHaveBeenCalled();
    expect(stopping).toEqual(['SIGINT']);
  });

  it('takes the launcher’s relayed copy of a Ctrl-C for the same stop, however late it comes', () => {
    process.emit('SIGINT', 'SIGINT');
    vi.advanceTimersByTime(10 * ECHO_WINDOW_MS);
    relay('SIGINT');
    expect(exit).not.toHaveBeenCalled();
    expect(stopping).toEqual(['SIGINT']);
  });

  it('takes a relayed signal before the terminal’s copy for the same stop too', () => {
    relay('SIGTERM');
    vi.advanceTimersByTime(10 * ECHO_WINDOW_MS);
    process.emit('SIGTERM', 'SIGTERM');
    expect(exit).not.toHaveBeenCalled();
    expect(stopping).toEqual(['SIGTERM']);
  });

  it('exits at once on a second Ctrl-C that reaches both processes', () => {
    process.emit('SIGINT', 'SIGINT');
    relay('SIGINT');
    vi.advanceTimersByTime(ECHO_WINDOW_MS);
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(130);
  });

  it('exits at once on a second signal relayed by the launcher alone (a second `kill` of it)', () => {
    relay('SIGTERM');
    relay('SIGTERM');
    expect(exit).toHaveBeenCalledWith(143);
  });

  it('leaves no listener behind when no signal came', () => {
    const before = process.listenerCount('SIGINT');
    stop.dispose();
    expect(process.listenerCount('SIGINT')).toBe(before - 1);
  });

  it('exits at once on a signal once a stop was requested for another reason', () => {
    stop.requestStop();
    process.emit('SIGTERM', 'SIGTERM');
    expect(exit).toHaveBeenCalledWith(143);
  });
});
