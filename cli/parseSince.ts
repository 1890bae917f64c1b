// Reads a `--since` time: an RFC 3339 instant, a date (midnight UTC), or an age such as 30s, 90m, 6h, 2d
// or 1h30m, written the ways people write ages (`2 hours`, `1d 12h`, `45 min ago`).
import { CliUsageError } from './errors.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNIT_MS: Readonly<Record<string, number>> = {
  s: SECOND,
  sec: SECOND,
  secs: SECOND,
  second: SECOND,
  seconds: SECOND,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  d: DAY,
  day: DAY,
  days: DAY,
  w: 7 * DAY,
  week: 7 * DAY,
  weeks: 7 * DAY,
};

/** One or more `<number><unit>` parts, spaces allowed between and within them, and an optional "ago". */
const AGE = /^(?:\d+(?:\.\d+)?\s*[a-z]+\s*)+(?:ago)?$/;
const PART = /(\d+(?:\.\d+)?)\s*([a-z]+)/g;

export function parseSince(text: string, nowMs: number): number {
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  if (AGE.test(lower)) {
    let ageMs = 0;
    for (const [, amount, unit] of lower.replace(/\s*ago$/, '').matchAll(PART)) {
      const unitMs = UNIT_MS[unit ?? ''];
      if (unitMs === undefined) {
        throw new CliUsageError(
          `--since "${text}": "${unit}" is not a unit; use s, m, h, d or w, e.g. 30s, 90m, 1h30m or 2d`,
        );
      }
      ageMs += Number(amount) * unitMs;
    }
    return nowMs - Math.round(ageMs);
  }
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) {
    throw new CliUsageError(
      `--since "${text}" needs a unit: ${trimmed}s, ${trimmed}m, ${trimmed}h or ${trimmed}d`,
    );
  }
  if (/^\d{4}-\d{2}-\d{2}(?:T.+)?$/.test(trimmed)) {
    const at = Date.parse(trimmed);
    if (!Number.isNaN(at)) return at;
  }
  throw new CliUsageError(
    `--since "${text}" is neither a time like 2026-11-22T08:00:00Z nor an age like 30s, 90m, 1h30m or 2d`,
  );
}
