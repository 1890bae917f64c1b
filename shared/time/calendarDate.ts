// Calendar dates (YYYY-MM-DD) in an IANA time zone, through the platform's Intl time-zone database.
import { formatterPerZone } from './formatterPerZone.js';

// en-CA formats as YYYY-MM-DD.
const dateFormatter = formatterPerZone(
  (timeZone) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
);

/** Today's date in `timeZone` at instant `nowMs`. Throws RangeError for an unknown zone. */
export function calendarDateIn(timeZone: string, nowMs: number): string {
  return dateFormatter(timeZone).format(nowMs);
}

/** The date `days` after (or before, if negative) `date`. */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

let listedZones: ReadonlySet<string> | undefined;

export function isValidTimeZone(timeZone: string): boolean {
  // The platform's list answers for the usual names without a formatter, whose first construction loads
  // ICU's date data (~20 ms of a Lambda cold start, in functions that never format a date); the other
  // spellings a formatter accepts (aliases such as US/Eastern, UTC, any letter case) still go through one.
  listedZones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (listedZones.has(timeZone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The zone this machine runs in, e.g. for CLI defaults. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
