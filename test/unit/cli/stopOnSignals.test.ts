// The stop signals of the long-running commands: the first asks for a graceful stop, the same signal
// again within moments is the echo of that one Ctrl-C (npm forwards what the terminal already sent to
// its whole group), and a signal after that exits at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ECHO_WINDOW_MS, type SignalStop, stopOnSignals } from '../../../cli/runtime/stopOnSignals.js';

describe('stopOnSignals', () => {
  let stop: SignalStop;
  let exit: ReturnType<typeof vi.spyOn>;
  const stopping: string[] = [];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
    exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    stopping.length = 0;
    stop = stopOnSignals((signal) => stopping.push(signal));
  });

  afterEach(() => {
    stop.dispose();
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

  it('still swallows the echo of the stop signal for a moment after the command is done', () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout'] });
    const before = process.listenerCount('SIGINT');
    process.emit('SIGINT', 'SIGINT');
    stop.dispose();
    // A listener is left, so the late echo does not kill the process with the default action...
    expect(process.listenerCount('SIGINT')).toBe(before);
    process.emit('SIGINT', 'SIGINT');
    expect(exit).not.toHaveBeenCalled();
    // ...and only for the echo's window.
    vi.advanceTimersByTime(ECHO_WINDOW_MS);
    expect(process.listenerCount('SIGINT')).toBe(before - 1);
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
