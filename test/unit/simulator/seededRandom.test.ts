import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { SeededRandom } from '../../../simulator/seededRandom.js';

const draws = (rng: SeededRandom, count: number) => Array.from({ length: count }, () => rng.next());

describe('SeededRandom', () => {
  it('replays the same sequence for the same seed and a different one for another seed', () => {
    expect(draws(new SeededRandom(42), 20)).toEqual(draws(new SeededRandom(42), 20));
    expect(draws(new SeededRandom(42), 20)).not.toEqual(draws(new SeededRandom(43), 20));
  });

  it('gives a forked stream that does not depend on how much the parent has drawn', () => {
    const fresh = new SeededRandom(7);
    const used = new SeededRandom(7);
    draws(used, 100);
    expect(draws(used.fork('orders'), 10)).toEqual(draws(fresh.fork('orders'), 10));
    expect(draws(fresh.fork('orders'), 10)).not.toEqual(draws(fresh.fork('faults'), 10));
  });

  it('keeps int() within both inclusive bounds and reaches each of them', () => {
    const rng = new SeededRandom(1);
    const values = new Set(Array.from({ length: 500 }, () => rng.int(3, 6)));
    expect([...values].sort()).toEqual([3, 4, 5, 6]);
  });

  it('draws version 4 uuids that zod accepts', () => {
    const rng = new SeededRandom(5);
    for (let i = 0; i < 50; i += 1) {
      const uuid = rng.uuid();
      expect(z.uuid().safeParse(uuid).success).toBe(true);
      expect(uuid.charAt(14)).toBe('4');
    }
  });

  it('picks weighted values in proportion to their weights', () => {
    const rng = new SeededRandom(9);
    const picks = Array.from({ length: 4000 }, () =>
      rng.weighted([
        ['a', 3],
        ['b', 1],
      ] as const),
    );
    const share = picks.filter((value) => value === 'a').length / picks.length;
    expect(share).toBeGreaterThan(0.7);
    expect(share).toBeLessThan(0.8);
  });
});
