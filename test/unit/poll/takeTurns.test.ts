import { describe, expect, it } from 'vitest';
import { dueAfter, nextTurn, type Turn, tokenFreeAt } from '../../../shared/poll/takeTurns.js';

const NOW = 1_795_000_000_000;

interface Entry extends Turn {
  name: string;
}

function entry(name: string, dueAt: number, lastPolledAt = Number.NEGATIVE_INFINITY): Entry {
  return { name, dueAt, lastPolledAt };
}

describe('nextTurn', () => {
  it('has no turn to give among no entries', () => {
    expect(nextTurn([], NOW)).toBeUndefined();
  });

  it('gives the only due entry its turn at once', () => {
    const due = entry('north', NOW - 5_000, NOW - 60_000);
    expect(nextTurn([due], NOW)).toEqual({ entry: due, waitMs: 0 });
  });

  it('counts an entry due exactly now as due', () => {
    const due = entry('north', NOW, NOW - 60_000);
    expect(nextTurn([due], NOW)).toEqual({ entry: due, waitMs: 0 });
  });

  it('among due entries, gives the turn to the least recently polled', () => {
    const entries = [
      entry('north', NOW - 30_000, NOW - 10_000),
      entry('south', NOW - 1_000, NOW - 50_000),
      entry('east', NOW - 20_000, NOW - 20_000),
    ];
    expect(nextTurn(entries, NOW)?.entry.name).toBe('south');
  });

  it('puts an entry never polled before every entry polled already', () => {
    const entries = [
      entry('north', NOW - 30_000, NOW - 90_000),
      entry('south', NOW, Number.NEGATIVE_INFINITY),
    ];
    expect(nextTurn(entries, NOW)?.entry.name).toBe('south');
  });

  it('prefers a due entry to one not yet due, however long ago that one was polled', () => {
    const entries = [entry('north', NOW + 1_000, NOW - 600_000), entry('south', NOW - 1_000, NOW - 5_000)];
    expect(nextTurn(entries, NOW)).toEqual({ entry: entries[1], waitMs: 0 });
    expect(nextTurn([...entries].reverse(), NOW)).toEqual({ entry: entries[1], waitMs: 0 });
  });

  it('when none is due, names the earliest due and how long to wait for it', () => {
    const entries = [
      entry('north', NOW + 9_000, NOW - 60_000),
      entry('south', NOW + 4_000, NOW - 10_000),
      entry('east', NOW + 7_000, NOW - 90_000),
    ];
    expect(nextTurn(entries, NOW)).toEqual({ entry: entries[1], waitMs: 4_000 });
  });

  it('gives the same answer whatever the order of the entries', () => {
    const entries = [
      entry('north', NOW - 30_000, NOW - 10_000),
      entry('south', NOW + 1_000, NOW - 90_000),
      entry('east', NOW - 1_000, NOW - 50_000),
      entry('west', NOW - 2_000, NOW - 20_000),
    ];
    const orders = [
      [0, 1, 2, 3],
      [3, 2, 1, 0],
      [1, 0, 3, 2],
      [2, 3, 0, 1],
      [1, 3, 0, 2],
    ];
    for (const order of orders) {
      const shuffled = order.map((index) => entries[index] as Entry);
      expect(nextTurn(shuffled, NOW)?.entry.name, order.join(',')).toBe('east');
    }
  });

  it('waits for the token to be free, even for an entry already due', () => {
    const due = entry('north', NOW - 5_000, NOW - 60_000);
    expect(nextTurn([due], NOW, NOW + 3_000)).toEqual({ entry: due, waitMs: 3_000 });
    expect(nextTurn([due], NOW, NOW - 3_000)).toEqual({ entry: due, waitMs: 0 });
  });
});

describe('tokenFreeAt', () => {
  it('rests the token for what the cycle cost at 90 % of its rate, the hold of its reservation allowed for', () => {
    // 45 a minute, less for the 3 s the 4 requests are held (2 s to arrive, 4 × 250 ms): 4 / (45 × 60 / 63)
    // minutes.
    expect(tokenFreeAt(NOW, 4, 50)).toBe(NOW + Math.round((4 / ((45 * 60) / 63)) * 60_000));
    expect(tokenFreeAt(NOW, 0, 50)).toBe(NOW);
  });
});

describe('dueAfter', () => {
  const report = { nextPollAt: NOW + 90_000, earliestNextPollAt: NOW + 10_000 };

  it('makes an organization in a round due as soon as its cadence allows', () => {
    expect(dueAfter(report, true)).toBe(NOW + 10_000);
  });

  it('makes an organization alone on its token due when its pace says', () => {
    expect(dueAfter(report, false)).toBe(NOW + 90_000);
    expect(dueAfter({ nextPollAt: NOW + 5_000 }, true)).toBe(NOW + 5_000);
  });
});
