import { describe, expect, it } from 'vitest';
import { decideReservation, InMemoryBudgetCounterStore } from '../../../shared/api/budgetCounterStore.js';
import { takeOne } from '../../support/budgetTake.js';

const WINDOW = 60_000;
const T0 = 1_000_000;

describe('InMemoryBudgetCounterStore', () => {
  it('grants up to the limit within one window', async () => {
    const store = new InMemoryBudgetCounterStore();
    const takes = [];
    for (let i = 0; i < 3; i += 1) takes.push(await takeOne(store, 'k', T0 + i, 3, WINDOW));
    expect(takes).toEqual([
      { granted: true, remaining: 2 },
      { granted: true, remaining: 1 },
      { granted: true, remaining: 0 },
    ]);
  });

  it('refuses past the limit until the oldest request leaves the window', async () => {
    const store = new InMemoryBudgetCounterStore();
    await takeOne(store, 'k', T0, 2, WINDOW);
    await takeOne(store, 'k', T0 + 10_000, 2, WINDOW);
    expect(await takeOne(store, 'k', T0 + 20_000, 2, WINDOW)).toEqual({
      granted: false,
      retryAtMs: T0 + WINDOW,
    });
    expect(await takeOne(store, 'k', T0 + WINDOW - 1, 2, WINDOW)).toEqual({
      granted: false,
      retryAtMs: T0 + WINDOW,
    });
    expect(await takeOne(store, 'k', T0 + WINDOW, 2, WINDOW)).toEqual({ granted: true, remaining: 0 });
    // Now the request at T0 + 10 s is the oldest.
    expect(await takeOne(store, 'k', T0 + WINDOW + 1, 2, WINDOW)).toEqual({
      granted: false,
      retryAtMs: T0 + 10_000 + WINDOW,
    });
  });

  it('does not count refused attempts against the budget', async () => {
    const store = new InMemoryBudgetCounterStore();
    await takeOne(store, 'k', T0, 1, WINDOW);
    for (let i = 1; i <= 5; i += 1) await takeOne(store, 'k', T0 + i, 1, WINDOW);
    expect(await takeOne(store, 'k', T0 + WINDOW, 1, WINDOW)).toEqual({ granted: true, remaining: 0 });
  });

  it('reads a lower limit against requests already made', async () => {
    const store = new InMemoryBudgetCounterStore();
    for (let i = 0; i < 3; i += 1) await takeOne(store, 'k', T0 + i * 1_000, 5, WINDOW);
    // With limit 2, the two oldest of three must leave: the second one, at T0 + 1 s, is the last to go.
    expect(await takeOne(store, 'k', T0 + 5_000, 2, WINDOW)).toEqual({
      granted: false,
      retryAtMs: T0 + 1_000 + WINDOW,
    });
  });

  it('keeps separate counts per key', async () => {
    const store = new InMemoryBudgetCounterStore();
    await takeOne(store, 'a', T0, 1, WINDOW);
    expect((await takeOne(store, 'a', T0, 1, WINDOW)).granted).toBe(false);
    expect(await takeOne(store, 'b', T0, 1, WINDOW)).toEqual({ granted: true, remaining: 0 });
  });

  it('reports what remains in the window ending now', async () => {
    const store = new InMemoryBudgetCounterStore();
    expect(await store.remaining('k', T0, 5, WINDOW)).toBe(5);
    await takeOne(store, 'k', T0, 5, WINDOW);
    await takeOne(store, 'k', T0 + 30_000, 5, WINDOW);
    expect(await store.remaining('k', T0 + 30_000, 5, WINDOW)).toBe(3);
    expect(await store.remaining('k', T0 + WINDOW, 5, WINDOW)).toBe(4);
  });

  it('grants nothing while paused, then resumes', async () => {
    const store = new InMemoryBudgetCounterStore();
    await store.pauseUntil('k', T0 + 5_000);
    expect(await takeOne(store, 'k', T0, 10, WINDOW)).toEqual({ granted: false, retryAtMs: T0 + 5_000 });
    expect(await store.remaining('k', T0 + 4_999, 10, WINDOW)).toBe(0);
    expect(await takeOne(store, 'k', T0 + 5_000, 10, WINDOW)).toEqual({ granted: true, remaining: 9 });
    expect(await store.remaining('other', T0, 10, WINDOW)).toBe(10);
  });

  it('never shortens a pause', async () => {
    const store = new InMemoryBudgetCounterStore();
    await store.pauseUntil('k', T0 + 9_000);
    await store.pauseUntil('k', T0 + 1_000);
    expect(await takeOne(store, 'k', T0 + 2_000, 10, WINDOW)).toEqual({
      granted: false,
      retryAtMs: T0 + 9_000,
    });
  });
});

describe('decideReservation', () => {
  const request = (atLeast: number, atMost: number) => ({ atLeast, atMost, countAtMs: T0 + 5_000 });

  it('grants atMost when they all fit', () => {
    expect(decideReservation([], T0, request(1, 3), 5, WINDOW)).toEqual({ granted: 3 });
  });

  it('grants as many as fit when at least atLeast do', () => {
    expect(decideReservation([T0 - 2_000, T0 - 1_000], T0, request(2, 10), 5, WINDOW)).toEqual({
      granted: 3,
    });
    expect(decideReservation([T0 - 2_000, T0 - 1_000], T0, request(3, 10), 5, WINDOW)).toEqual({
      granted: 3,
    });
  });

  it('grants nothing when fewer than atLeast fit, saying when enough will have left the window', () => {
    const recent = [T0 - 30_000, T0 - 20_000, T0 - 10_000];
    // Two are free: for three, the oldest must leave; for four, the two oldest.
    expect(decideReservation(recent, T0, request(3, 5), 5, WINDOW)).toEqual({
      granted: 0,
      retryAtMs: T0 - 30_000 + WINDOW,
    });
    expect(decideReservation(recent, T0, request(4, 5), 5, WINDOW)).toEqual({
      granted: 0,
      retryAtMs: T0 - 20_000 + WINDOW,
    });
  });

  it('counts entries dated in the future until they leave the window', () => {
    const reserved = [T0 + 10_000, T0 + 10_000];
    expect(decideReservation(reserved, T0, request(1, 1), 2, WINDOW)).toEqual({
      granted: 0,
      retryAtMs: T0 + 10_000 + WINDOW,
    });
  });

  it('reads a lower limit against a log that already holds more', () => {
    const recent = [T0 - 3_000, T0 - 2_000, T0 - 1_000];
    expect(decideReservation(recent, T0, request(1, 1), 2, WINDOW)).toEqual({
      granted: 0,
      retryAtMs: T0 - 2_000 + WINDOW,
    });
  });

  it('grants nothing, and names no retry time, when at most 0 are wanted', () => {
    expect(decideReservation([], T0, request(0, 0), 5, WINDOW)).toEqual({ granted: 0 });
  });
});
