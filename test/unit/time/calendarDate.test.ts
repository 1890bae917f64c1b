import { describe, expect, it } from 'vitest';
import {
  addDays,
  calendarDateIn,
  isValidTimeZone,
  systemTimeZone,
} from '../../../shared/time/calendarDate.js';

describe('calendarDateIn', () => {
  it('gives different dates in Auckland and Los Angeles at the same instant', () => {
    const instant = Date.UTC(2026, 2, 5, 20, 0, 0); // 2026-03-05 20:00 UTC
    expect(calendarDateIn('Pacific/Auckland', instant)).toBe('2026-03-06'); // 09:00 NZDT next day
    expect(calendarDateIn('America/Los_Angeles', instant)).toBe('2026-03-05'); // 12:00 PST
    expect(calendarDateIn('UTC', instant)).toBe('2026-03-05');
  });

  it('turns the date at local midnight, not at UTC midnight', () => {
    // Lisbon is UTC+1 in summer: 23:30 UTC on 30 June is 00:30 on 1 July.
    expect(calendarDateIn('Europe/Lisbon', Date.UTC(2026, 5, 30, 23, 30))).toBe('2026-07-01');
    expect(calendarDateIn('Europe/Lisbon', Date.UTC(2026, 5, 30, 22, 59))).toBe('2026-06-30');
  });

  it('crosses a year boundary in a zone ahead of UTC', () => {
    expect(calendarDateIn('Asia/Tokyo', Date.UTC(2026, 11, 31, 15, 0))).toBe('2027-01-01');
  });

  it('always writes YYYY-MM-DD with zero padding', () => {
    expect(calendarDateIn('UTC', Date.UTC(2026, 0, 2, 3))).toBe('2026-01-02');
  });

  it('throws RangeError for an unknown zone', () => {
    expect(() => calendarDateIn('Mars/Olympus_Mons', 0)).toThrow(RangeError);
  });
});

describe('addDays', () => {
  it.each([
    ['2026-03-05', 1, '2026-03-06'],
    ['2026-03-05', 0, '2026-03-05'],
    ['2026-03-31', 1, '2026-04-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2026-03-05', 30, '2026-04-04'],
    ['2026-03-05', -365, '2025-03-05'],
  ])('%s plus %i days is %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('is unaffected by a daylight-saving change of the machine zone', () => {
    // The last Sunday of March and October: a local-time implementation would slip here.
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-10-24', 2)).toBe('2026-10-26');
  });
});

describe('isValidTimeZone', () => {
  it.each([
    'Europe/Lisbon',
    'Pacific/Auckland',
    'America/Los_Angeles',
    'UTC',
    'US/Eastern',
    'Asia/Calcutta',
    'europe/lisbon',
  ])('accepts %s', (zone) => {
    expect(isValidTimeZone(zone)).toBe(true);
  });

  it.each(['Mars/Olympus_Mons', 'Lisbon', '', 'GMT+25'])('rejects %j', (zone) => {
    expect(isValidTimeZone(zone)).toBe(false);
  });

  it('accepts the zone the machine runs in', () => {
    expect(isValidTimeZone(systemTimeZone())).toBe(true);
  });
});
