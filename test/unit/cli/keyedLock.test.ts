import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../../cli/runtime/keyedLock.js';

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
