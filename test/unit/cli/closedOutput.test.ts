import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { endQuietlyWhenOutputCloses, onOutputClosed } from '../../../cli/runtime/closedOutput.js';

function streams() {
  return { stdout: new EventEmitter(), stderr: new EventEmitter() } as unknown as Record<
    'stdout' | 'stderr',
    NodeJS.WritableStream
  >;
}
const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });

describe('a standard stream whose reader goes away', () => {
  it('ends the process, quietly, whichever command wrote', () => {
    const exit = vi.fn();
    const { stdout, stderr } = streams();
    endQuietlyWhenOutputCloses({ stdout, stderr }, exit);
    stdout.emit('error', epipe);
    expect(exit).toHaveBeenCalledTimes(1);
    stderr.emit('error', epipe);
    expect(exit).toHaveBeenCalledTimes(2);
  });

  it('is left to a command that listens for it, told which stream closed', () => {
    const exit = vi.fn();
    const closed: string[] = [];
    const { stdout, stderr } = streams();
    endQuietlyWhenOutputCloses({ stdout, stderr }, exit);
    const stopListening = onOutputClosed((name) => closed.push(name));
    try {
      stdout.emit('error', epipe);
    } finally {
      stopListening();
    }
    expect(closed).toEqual(['stdout']);
    expect(exit).not.toHaveBeenCalled();
    // Once the command stops listening, the process ends again.
    stdout.emit('error', epipe);
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it('does not hide another failure of the stream', () => {
    const exit = vi.fn();
    const { stdout, stderr } = streams();
    endQuietlyWhenOutputCloses({ stdout, stderr }, exit);
    const failure = Object.assign(new Error('write EIO'), { code: 'EIO' });
    expect(() => stdout.emit('error', failure)).toThrow(failure);
    expect(exit).not.toHaveBeenCalled();
  });
});
