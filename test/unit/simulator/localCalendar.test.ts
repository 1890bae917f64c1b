import { describe, expect, it } from 'vitest';
import { LocalCalendar } from '../../../simulator/localCalendar.js';

describe('LocalCalendar', () => {
  it('turns to the next day at local midnight, not at UTC midnight', () => {
    const lisbon = new LocalCalendar('Europe/Lisbon');
    // Lisbon is UTC+1 in July: local midnight is 23:00 UTC.
    expect(lisbon.dateAt(Date.UTC(2026, 6, 10, 22, 59, 59, 999))).toBe('2026-07-10');
    expect(lisbon.dateAt(Date.UTC(2026, 6, 10, 23, 0))).toBe('2026-07-11');
    expect(lisbon.dateAt(Date.UTC(2026, 6, 10, 22, 59))).toBe('2026-07-10');
  });

  it('is exact in zones whose offset is not a whole hour', () => {
    const kathmandu = new LocalCalendar('Asia/Kathmandu');
    // UTC+5:45: local midnight of 11 March is 18:15 UTC on 10 March.
    expect(kathmandu.dateAt(Date.UTC(2026, 2, 10, 18, 14, 59))).toBe('2026-03-10');
    expect(kathmandu.dateAt(Date.UTC(2026, 2, 10, 18, 15))).toBe('2026-03-11');
  });
});
