// Wall-clock times in an IANA time zone as instants, and back: an establishment's closing time is written
// as HH:MM:SS in the organization's zone, and daylight saving moves the instant it stands for.
import { formatterPerZone } from './formatterPerZone.js';

const offsetFormatter = formatterPerZone(
  (timeZone) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
);

/** The wall clock of `timeZone` at `epochMs`, field by field, each as Intl writes it (two digits but the year). */
export function wallClockFields(
  timeZone: string,
  epochMs: number,
): (type: Intl.DateTimeFormatPartTypes) => string {
  const parts = offsetFormatter(timeZone).formatToParts(new Date(epochMs));
  return (type) => parts.find((part) => part.type === type)?.value ?? '';
}

/** The offset of `timeZone` from UTC at `epochMs`, in minutes (east positive). */
export function zoneOffsetMinutes(timeZone: string, epochMs: number): number {
  const fields = wallClockFields(timeZone, epochMs);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(fields(type));
  const asUtc = Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

/**
 * The instant of wall-clock `time` (HH:MM or HH:MM:SS) on `date` (YYYY-MM-DD) in `timeZone`. A time that
 * a spring-forward gap skips is read with the offset before the gap, as most calendars do.
 */
export function zonedInstant(date: string, time: string, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const [hour = 0, minute = 0, second = 0] = time.split(':').map(Number);
  const asUtc = Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1, hour, minute, second);
  // Two passes: the offset at the first guess, then at the instant that guess gives, settle any DST edge.
  const first = asUtc - zoneOffsetMinutes(timeZone, asUtc) * 60_000;
  return asUtc - zoneOffsetMinutes(timeZone, first) * 60_000;
}

/** ISO weekday of a calendar date: 1 = Monday … 7 = Sunday, as the API's `working_days` counts. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** `epochMs` as RFC 3339 with the zone's offset, e.g. `2026-11-24T10:30:00+00:00`. */
export function zonedIsoTime(epochMs: number, timeZone: string): string {
  const offset = zoneOffsetMinutes(timeZone, epochMs);
  const local = new Date(epochMs + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}
