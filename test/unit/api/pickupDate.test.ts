import { describe, expect, it } from 'vitest';
import { normalizePickupDate } from '../../../shared/api/pickupDate.js';

describe('normalizePickupDate', () => {
  it('keeps a YYYY-MM-DD date as it is', () => {
    expect(normalizePickupDate('2026-03-05')).toBe('2026-03-05');
  });

  it('reads DD/MM/YY as day, month, then a 20YY year', () => {
    expect(normalizePickupDate('05/03/26')).toBe('2026-03-05');
    expect(normalizePickupDate('31/12/25')).toBe('2025-12-31');
  });

  it('gives the same date for both forms of one day', () => {
    expect(normalizePickupDate('09/11/26')).toBe(normalizePickupDate('2026-11-09'));
  });

  it('accepts 29 February only in a leap year', () => {
    expect(normalizePickupDate('29/02/28')).toBe('2028-02-29');
    expect(normalizePickupDate('29/02/26')).toBeUndefined();
    expect(normalizePickupDate('2026-02-29')).toBeUndefined();
  });

  it.each(['31/02/26', '31/04/26', '00/01/26', '01/13/26', '2026-02-30', '2026-13-01', '2026-00-10'])(
    'rejects the impossible date %s',
    (text) => {
      expect(normalizePickupDate(text)).toBeUndefined();
    },
  );

  it.each(['', 'tomorrow', '5/3/26', '05/03/2026', '2026/03/05', '05-03-26', '20260305'])(
    'rejects %j, which is neither form',
    (text) => {
      expect(normalizePickupDate(text)).toBeUndefined();
    },
  );

  it('ignores surrounding whitespace', () => {
    expect(normalizePickupDate(' 05/03/26\n')).toBe('2026-03-05');
  });

  it('takes the date part of a timestamp that starts with YYYY-MM-DD', () => {
    expect(normalizePickupDate('2026-03-05T00:00:00.000000Z')).toBe('2026-03-05');
    expect(normalizePickupDate('2026-03-05 10:30:00')).toBe('2026-03-05');
  });
});
