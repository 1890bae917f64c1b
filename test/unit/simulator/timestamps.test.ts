import { describe, expect, it } from 'vitest';
import { money } from '../../../simulator/money.js';
import { formatTimestamp, microsFromMs, parseTimestamp } from '../../../simulator/timestamps.js';

describe('timestamps', () => {
  it('writes the API shape with six fractional digits and reads it back to the microsecond', () => {
    const micros = microsFromMs(Date.UTC(2026, 2, 10, 9, 5, 7, 123)) + 456;
    const text = formatTimestamp(micros);
    expect(text).toBe('2026-03-10T09:05:07.123456Z');
    expect(parseTimestamp(text)).toBe(micros);
  });

  it('refuses text of any other shape', () => {
    expect(() => parseTimestamp('2026-03-10T09:05:07.123Z')).toThrow(RangeError);
  });
});

describe('money', () => {
  it('writes the amount as a digit string with two decimals and the euro sign', () => {
    expect(money(450)).toEqual({ amount: '4.50', currency: 'EUR', formatted: '€4.50' });
    expect(money(5)).toEqual({ amount: '0.05', currency: 'EUR', formatted: '€0.05' });
    expect(money(123_400).amount).toBe('1234.00');
  });
});
