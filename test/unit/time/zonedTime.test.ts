import { describe, expect, it } from 'vitest';
import { isoWeekday, zonedInstant, zonedIsoTime, zoneOffsetMinutes } from '../../../shared/time/zonedTime.js';

describe('zoned wall-clock times', () => {
  it('reads a closing time in the zone’s winter and summer offsets', () => {
    expect(new Date(zonedInstant('2026-11-24', '10:30:00', 'Europe/Lisbon')).toISOString()).toBe(
      '2026-11-24T10:30:00.000Z',
    );
    expect(new Date(zonedInstant('2026-07-14', '10:30:00', 'Europe/Lisbon')).toISOString()).toBe(
      '2026-07-14T09:30:00.000Z',
    );
    expect(new Date(zonedInstant('2026-11-24', '10:30', 'America/New_York')).toISOString()).toBe(
      '2026-11-24T15:30:00.000Z',
    );
  });

  it('reads a time on a daylight-saving day with that day’s offset', () => {
    // Europe/Berlin moves to +02:00 at 02:00 on 2026-03-29.
    expect(new Date(zonedInstant('2026-03-29', '11:00:00', 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-29T09:00:00.000Z',
    );
    expect(new Date(zonedInstant('2026-03-28', '11:00:00', 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-28T10:00:00.000Z',
    );
  });

  it('writes an instant with the zone’s offset', () => {
    const at = Date.parse('2026-11-24T15:30:00Z');
    expect(zoneOffsetMinutes('America/New_York', at)).toBe(-300);
    expect(zonedIsoTime(at, 'America/New_York')).toBe('2026-11-24T10:30:00-05:00');
    expect(zonedIsoTime(at, 'Asia/Kolkata')).toBe('2026-11-24T21:00:00+05:30');
  });

  it('counts weekdays as the API does, Monday 1 to Sunday 7', () => {
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(isoWeekday('2026-11-29')).toBe(7);
  });
});
