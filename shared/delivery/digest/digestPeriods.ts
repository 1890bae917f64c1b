// The periods a digest gathers, in the organization's time zone: each hour on the hour (a zone offset of
// half an hour moves the boundary with it), or each day ending at the configured HH:MM, so a daylight
// saving day's period lasts 23 or 25 hours and the e-mail still goes at the same wall-clock time.
import type { DigestConfig } from '../../config/configSchema.js';
import { addDays, calendarDateIn } from '../../time/calendarDate.js';
import { zonedInstant, zoneOffsetMinutes } from '../../time/zonedTime.js';

const HOUR_MS = 3_600_000;

export interface DigestPeriod {
  /** Inclusive, epoch ms. */
  startMs: number;
  /** Exclusive, epoch ms. */
  endMs: number;
}

/** The latest period boundary at or before `atMs`. */
export function periodBoundaryAtOrBefore(
  digest: Pick<DigestConfig, 'every' | 'at'>,
  timeZone: string,
  atMs: number,
): number {
  if (digest.every === '1h') {
    const offsetMs = zoneOffsetMinutes(timeZone, atMs) * 60_000;
    return Math.floor((atMs + offsetMs) / HOUR_MS) * HOUR_MS - offsetMs;
  }
  const at = digest.at ?? '00:00';
  const today = calendarDateIn(timeZone, atMs);
  const todays = zonedInstant(today, at, timeZone);
  return todays <= atMs ? todays : zonedInstant(addDays(today, -1), at, timeZone);
}

/** The period that ends at `endMs`, a boundary. */
export function periodEndingAt(
  digest: Pick<DigestConfig, 'every' | 'at'>,
  timeZone: string,
  endMs: number,
): DigestPeriod {
  return { startMs: periodBoundaryAtOrBefore(digest, timeZone, endMs - 1), endMs };
}

/** The periods that ended at or before `nowMs` and after `sinceMs`, oldest first. */
export function periodsEndedBetween(
  digest: Pick<DigestConfig, 'every' | 'at'>,
  timeZone: string,
  sinceMs: number,
  nowMs: number,
): DigestPeriod[] {
  const periods: DigestPeriod[] = [];
  let end = periodBoundaryAtOrBefore(digest, timeZone, nowMs);
  while (end > sinceMs) {
    const period = periodEndingAt(digest, timeZone, end);
    periods.unshift(period);
    end = period.startMs;
  }
  return periods;
}
