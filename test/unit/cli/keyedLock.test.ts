import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../../cli/runtime/keyedLock.js';
import { WakeUp } from '../../../cli/runtime/wakeUp.js';

describe('KeyedLock', () => {
  it('runs tasks of one key in the order they asked, one at a time, and keeps going after a failure', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        order.push(`${name} start`);
        await new Promise((resolve) => setImmediate(resolve));
        order.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      lock.run('token', task('a')),
      lock.run('token', task('b', true)),
      lock.run('token', task('c')),
    ]);
    expect(order).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

describe('WakeUp', () => {
  it('aborts the current round’s signal on wake, and the next round gets a fresh one', () => {
    const stop = new AbortController();
    const wakeUp = new WakeUp();
    const round = wakeUp.nextSignal(stop.signal);
    wakeUp.wake();
    expect(round.aborted).toBe(true);
    const next = wakeUp.nextSignal(stop.signal);
    expect(next.aborted).toBe(false);
    stop.abort();
    expect(next.aborted).toBe(true);
  });
});
