import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { processExists } from '../../../cli/runtime/processExists.js';

function failingWith(code: string) {
  return () => {
    throw Object.assign(new Error(code), { code });
  };
}

describe('processExists', () => {
  it('finds this process', () => {
    expect(processExists(process.pid)).toBe(true);
  });

  it('does not find a process that has exited', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid;
    if (pid === undefined) throw new Error('no child process');
    await once(child, 'exit');
    expect(processExists(pid)).toBe(false);
  });

  it('finds a process of another user, which it may not signal', () => {
    expect(processExists(1234, failingWith('EPERM'))).toBe(true);
  });

  it('presumes alive a process it cannot ask about for any other reason', () => {
    expect(processExists(1234, failingWith('EINVAL'))).toBe(true);
    expect(processExists(1234, failingWith('ESRCH'))).toBe(false);
  });

  it('sends signal 0, which only checks', () => {
    const sent: Array<[number, number]> = [];
    processExists(77, (pid, signal) => sent.push([pid, signal]));
    expect(sent).toEqual([[77, 0]]);
  });
});
