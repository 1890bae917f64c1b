import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../../simulator/eventQueue.js';

describe('EventQueue', () => {
  it('pops events in time order, ties in insertion order, and only those already due', () => {
    const queue = new EventQueue<string>();
    for (const [at, name] of [
      [30, 'c'],
      [10, 'a1'],
      [20, 'b'],
      [10, 'a2'],
      [50, 'late'],
      [5, 'first'],
    ] as const) {
      queue.push(at, name);
    }
    const popped: string[] = [];
    for (let due = queue.popDue(30); due; due = queue.popDue(30)) popped.push(due.event);
    expect(popped).toEqual(['first', 'a1', 'a2', 'b', 'c']);
    expect(queue.size).toBe(1);
    expect(queue.peekTime()).toBe(50);
    expect(queue.popDue(49)).toBeUndefined();
  });

  it('stays ordered over many random pushes', () => {
    const queue = new EventQueue<number>();
    const times = Array.from({ length: 300 }, (_, i) => (i * 7919) % 1000);
    for (const at of times) queue.push(at, at);
    const popped: number[] = [];
    for (
      let due = queue.popDue(Number.POSITIVE_INFINITY);
      due;
      due = queue.popDue(Number.POSITIVE_INFINITY)
    ) {
      popped.push(due.at);
    }
    expect(popped).toEqual([...times].sort((a, b) => a - b));
  });
});
