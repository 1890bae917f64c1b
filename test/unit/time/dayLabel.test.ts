import { describe, expect, it } from 'vitest';
import { dayLabel } from '../../../shared/time/dayLabel.js';

describe('dayLabel', () => {
  it.each([
    ['2026-11-24', 'Tue 24 Nov'],
    ['2026-11-01', 'Sun 1 Nov'],
    ['2026-03-09', 'Mon 9 Mar'],
    ['2028-02-29', 'Tue 29 Feb'],
    ['2026-12-31', 'Thu 31 Dec'],
  ])('writes %s as %s', (date, label) => {
    expect(dayLabel(date)).toBe(label);
  });

  it('returns what is not a real date as given, rather than another day', () => {
    for (const text of ['2026-02-30', '24/11/26', '2026-11-24T10:00:00Z', ''])
      expect(dayLabel(text)).toBe(text);
  });
});
