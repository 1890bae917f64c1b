// An instant as people in the organization read it: "10:20, Sun 29 Nov", on the wall clock of its time
// zone. The one wording Slack, e-mail (text and HTML) and the CLI give an order's timestamps; each medium
// escapes it as it escapes everything else. The zone comes through Intl; the words (the day's "Sun 29 Nov")
// are spelled out by dayLabel, so every runtime and every ICU version writes the same text.
import { dayLabel } from './dayLabel.js';
import { wallClockFields } from './zonedTime.js';

/** The wall clock of `timeZone` at `epochMs`: its date (YYYY-MM-DD) and its time (HH:MM). */
function wallClock(epochMs: number, timeZone: string): { date: string; clock: string } {
  const part = wallClockFields(timeZone, epochMs);
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    clock: `${part('hour')}:${part('minute')}`,
  };
}

/**
 * "10:20, Sun 29 Nov": `instant` (RFC 3339, as the API and the events write it) on the wall clock of
 * `timeZone`. Without a zone, on the clock its own offset shows (a prep summary's closing time carries the
 * establishment's); an instant in UTC without a zone (an order event recorded before events carried one),
 * or a zone this platform does not know, reads "01:20 UTC, Sun 29 Nov": a time never reads as local when
 * it is not. Text that is not an instant is returned as given.
 */
export function localTimeLabel(instant: string, timeZone?: string): string {
  const epochMs = Date.parse(instant);
  if (Number.isNaN(epochMs)) return instant;
  if (timeZone !== undefined) {
    try {
      const { date, clock } = wallClock(epochMs, timeZone);
      return `${clock}, ${dayLabel(date)}`;
    } catch {
      // An unknown zone (RangeError): read in UTC below, and said so.
    }
  }
  const offset = timeZone === undefined ? offsetMinutes(instant) : undefined;
  const shifted = new Date(epochMs + (offset ?? 0) * 60_000).toISOString();
  const utc = offset === undefined ? ' UTC' : '';
  return `${shifted.slice(11, 16)}${utc}, ${dayLabel(shifted.slice(0, 10))}`;
}

/** The numeric offset an instant is written with ("+01:00" → 60); undefined for "Z" or none. */
function offsetMinutes(instant: string): number | undefined {
  const match = /T[\d:.]+([+-])(\d{2}):?(\d{2})$/.exec(instant);
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}
