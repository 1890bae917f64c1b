// Instants as every JSON output writes them: ISO 8601 in UTC with milliseconds, never epoch numbers.
import * as z from 'zod';

/** An instant as JSON outputs carry it, e.g. `2026-11-22T08:00:12.345Z`. */
export const IsoTimeSchema = z.iso.datetime();

export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

export function isoTimeOrNull(epochMs: number | null | undefined): string | null {
  return epochMs === null || epochMs === undefined ? null : isoTime(epochMs);
}
