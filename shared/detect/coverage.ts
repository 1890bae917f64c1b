// Where pending has been watched, kept between cycles: per pickup date (and establishment, when listed
// apart), when a complete pending walk last covered it. It tells news from orders that were there all
// along (absence.ts isNews) and which closings a prep summary can count (pure). The key is built and read here.
import * as z from 'zod';
import { addDays } from '../time/calendarDate.js';
import { isWholeWalk, type WalkResult } from './walkResult.js';

export const CoverageSchema = z.object({
  /** By coverageKey: when the pending listing holding that date was last walked completely (epoch ms). */
  pendingCoveredAt: z.record(z.string(), z.number()),
  /** When the first complete pending walk began: from then on, nothing is created unseen. */
  watchingSince: z.number().nullable(),
});
export type Coverage = z.infer<typeof CoverageSchema>;

/**
 * `2026-03-05`, or `2026-03-05@<establishment uuid>` when establishments are listed apart; the uuid in lower
 * case, as the config writes it, whatever case the API sends.
 */
export function coverageKey(pickupDate: string, establishment: string | undefined): string {
  return establishment === undefined ? pickupDate : `${pickupDate}@${establishment.toLowerCase()}`;
}

/** The pickup date a coverage key names. */
export function coverageKeyDate(key: string): string {
  return key.slice(0, 10);
}

/**
 * The coverage after a cycle that began `at`: the dates of every pending listing it walked completely are
 * covered now, so a new order there is news. Dates before `windowStart` are forgotten.
 */
export function recordCoverage(
  coverage: Coverage,
  walks: readonly WalkResult[],
  at: number,
  windowStart: string,
): Coverage {
  const pendingCoveredAt: Record<string, number> = {};
  for (const [key, coveredAt] of Object.entries(coverage.pendingCoveredAt)) {
    if (coverageKeyDate(key) >= windowStart) pendingCoveredAt[key] = coveredAt;
  }
  let { watchingSince } = coverage;
  for (const result of walks) {
    const { listing } = result.walk;
    if (result.walk.purpose !== 'detect' || !isWholeWalk(result)) continue;
    watchingSince ??= at;
    for (let date = listing.startDate; date <= listing.endDate; date = addDays(date, 1)) {
      if (date >= windowStart) pendingCoveredAt[coverageKey(date, listing.establishment)] = at;
    }
  }
  return { pendingCoveredAt, watchingSince };
}
