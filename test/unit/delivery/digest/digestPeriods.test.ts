import { describe, expect, it } from 'vitest';
import {
  periodBoundaryAtOrBefore,
  periodsEndedBetween,
} from '../../../../shared/delivery/digest/digestPeriods.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('hourly digest periods', () => {
  it('end on each hour of the organization clock', () => {
    const periods = periodsEndedBetween(
      { every: '1h' },
      'Europe/Lisbon',
      at('2026-11-24T09:30:00Z'),
      at('2026-11-24T12:10:00Z'),
    );
    expect(periods.map((p) => [iso(p.startMs), iso(p.endMs)])).toEqual([
      ['2026-11-24T09:00:00.000Z', '2026-11-24T10:00:00.000Z'],
      ['2026-11-24T10:00:00.000Z', '2026-11-24T11:00:00.000Z'],
      ['2026-11-24T11:00:00.000Z', '2026-11-24T12:00:00.000Z'],
    ]);
  });

  it('follow a half-hour zone offset, whose hours start at :30 UTC', () => {
    expect(iso(periodBoundaryAtOrBefore({ every: '1h' }, 'Asia/Kolkata', at('2026-11-24T10:45:00Z')))).toBe(
      '2026-11-24T10:30:00.000Z',
    );
  });

  it('have not ended at the boundary minus one millisecond, and have at the boundary', () => {
    const boundary = at('2026-11-24T12:00:00Z');
    const ended = (now: number) => periodsEndedBetween({ every: '1h' }, 'UTC', boundary - 3_600_000, now);
    expect(ended(boundary - 1)).toEqual([]);
    expect(ended(boundary)).toEqual([{ startMs: boundary - 3_600_000, endMs: boundary }]);
  });
});

describe('daily digest periods', () => {
  it('end each day at "at" in the organization zone, not in UTC', () => {
    const [period] = periodsEndedBetween(
      { every: '1d', at: '17:30' },
      'America/New_York',
      at('2026-11-24T12:00:00Z'),
      at('2026-11-25T12:00:00Z'),
    );
    // 17:30 in New York in November is 22:30 UTC.
    expect(period && [iso(period.startMs), iso(period.endMs)]).toEqual([
      '2026-11-23T22:30:00.000Z',
      '2026-11-24T22:30:00.000Z',
    ]);
  });

  it('last 23 hours on the spring-forward day and still end at the same wall-clock time', () => {
    // Europe/Lisbon moves from UTC+0 to UTC+1 on 2026-03-29 at 01:00.
    const [period] = periodsEndedBetween(
      { every: '1d', at: '08:00' },
      'Europe/Lisbon',
      at('2026-03-29T06:00:00Z'),
      at('2026-03-29T07:30:00Z'),
    );
    expect(period && [iso(period.startMs), iso(period.endMs)]).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
    ]);
    expect(period && period.endMs - period.startMs).toBe(23 * 3_600_000);
  });

  it('has not ended before today\'s "at": the period is the one that ended yesterday', () => {
    const boundary = periodBoundaryAtOrBefore(
      { every: '1d', at: '17:30' },
      'UTC',
      at('2026-11-24T17:29:59Z'),
    );
    expect(iso(boundary)).toBe('2026-11-23T17:30:00.000Z');
  });
});
