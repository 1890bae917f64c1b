// `--since`: an instant, a date, or an age written the ways people write one; anything else refused with
// one line that shows what would be understood.
import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../cli/errors.js';
import { parseSince } from '../../../cli/parseSince.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const S = 1_000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('parseSince', () => {
  it.each([
    ['1s', S],
    ['45 sec', 45 * S],
    ['90m', 90 * M],
    ['10min', 10 * M],
    ['2 minutes', 2 * M],
    ['6h', 6 * H],
    ['2 hours', 2 * H],
    ['2H', 2 * H],
    ['1h30m', 90 * M],
    ['1h 30m', 90 * M],
    ['1d12h', 36 * H],
    ['1.5h', 90 * M],
    ['2d', 2 * D],
    ['1 day', D],
    ['1w', 7 * D],
    ['3h ago', 3 * H],
    [' 5m ', 5 * M],
  ])('reads the age %j', (text, ageMs) => {
    expect(parseSince(text, NOW)).toBe(NOW - ageMs);
  });

  it('reads an instant and a date (midnight UTC)', () => {
    expect(parseSince('2026-11-22T08:00:00Z', NOW)).toBe(Date.UTC(2026, 10, 22, 8));
    expect(parseSince('2026-11-22T09:00:00+01:00', NOW)).toBe(Date.UTC(2026, 10, 22, 8));
    expect(parseSince('2026-11-21', NOW)).toBe(Date.UTC(2026, 10, 21));
  });

  it.each([
    ['30', '--since "30" needs a unit: 30s, 30m, 30h or 30d'],
    ['500ms', '--since "500ms": "ms" is not a unit; use s, m, h, d or w, e.g. 30s, 90m, 1h30m or 2d'],
    ['2 fortnights', '--since "2 fortnights": "fortnights" is not a unit'],
    ['1h30', 'is neither a time like 2026-11-22T08:00:00Z nor an age like 30s, 90m, 1h30m or 2d'],
    ['-2h', 'is neither a time'],
    ['yesterday', 'is neither a time'],
    ['ago', 'is neither a time'],
    ['', 'is neither a time'],
    ['2026-13-45', 'is neither a time'],
  ])('refuses %j with one line saying what it takes', (text, message) => {
    expect(() => parseSince(text, NOW)).toThrow(CliUsageError);
    expect(() => parseSince(text, NOW)).toThrow(message);
  });
});
