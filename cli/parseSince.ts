// Reads a `--since` time: an RFC 3339 instant, a date (midnight UTC), or an age such as 90m, 6h or 2d.
import { CliUsageError } from './errors.js';

const AGE = /^(\d+)\s*(m|min|h|d)$/;
const UNIT_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseSince(text: string, nowMs: number): number {
  const age = AGE.exec(text.trim());
  if (age) return nowMs - Number(age[1]) * (UNIT_MS[age[2] ?? ''] ?? 0);
  if (/^\d{4}-\d{2}-\d{2}(?:T.+)?$/.test(text.trim())) {
    const at = Date.parse(text.trim());
    if (!Number.isNaN(at)) return at;
  }
  throw new CliUsageError(
    `--since "${text}" is neither a time like 2026-11-22T08:00:00Z nor an age like 90m, 6h or 2d`,
  );
}
