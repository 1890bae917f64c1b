// Where pending has been watched, kept between cycles: per pickup date (and establishment, when listed
// apart), when a complete pending walk last covered it. It tells news from orders that were there all
// along (absence.ts isNews) and which closings a prep summary can count (pure). The key is built and read here.
import * as z from 'zod';
import { addDays } from '../time/calendarDate.js';
import { isTrustworthy, isWholeWalk, type WalkResult } from './walkResult.js';

export const CoverageSchema = z.object({
  /** By coverageKey: when the pending listing holding that date was last walked completely (epoch ms). */
  pendingCoveredAt: z.record(z.string(), z.number()),
  /** When the first complete pending walk began: from then on, nothing is created unseen. */
  watchingSince: z.number().nullable(),
  /**
   * By coverageKey: when a check that settled (listingCheck.ts) last read pending on that date up to date,
   * where that was after its last complete walk. A check covers nothing (it can miss an order that came
   * in the middle while another left), but the rest of the window is paced by what was read (pendingReadAt).
   */
  pendingReadAt: z.record(z.string(), z.number()).optional(),
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
 * covered now, so a new order there is news; those it walked or checked are read now. Dates before
 * `windowStart` are forgotten.
 */
export function recordCoverage(
  coverage: Coverage,
  walks: readonly WalkResult[],
  at: number,
  windowStart: string,
): Coverage {
  const pendingCoveredAt = inWindow(coverage.pendingCoveredAt, windowStart);
  const pendingReadAt = inWindow(coverage.pendingReadAt ?? {}, windowStart);
  let { watchingSince } = coverage;
  for (const result of walks) {
    const { listing } = result.walk;
    if (result.walk.purpose !== 'detect' || !isTrustworthy(result)) continue;
    const whole = isWholeWalk(result);
    if (whole) watchingSince ??= at;
    for (let date = listing.startDate; date <= listing.endDate; date = addDays(date, 1)) {
      if (date < windowStart) continue;
      const key = coverageKey(date, listing.establishment);
      if (whole) {
        pendingCoveredAt[key] = at;
        delete pendingReadAt[key];
      } else pendingReadAt[key] = at;
    }
  }
  return {
    pendingCoveredAt,
    watchingSince,
    ...(Object.keys(pendingReadAt).length === 0 ? {} : { pendingReadAt }),
  };
}

/**
 * When pending on `date` (of `establishment`, when listed apart) was last read up to date: walked whole, or
 * checked since. Undefined when never walked whole.
 */
export function pendingReadAt(
  coverage: Coverage,
  date: string,
  establishment: string | undefined,
): number | undefined {
  const key = coverageKey(date, establishment);
  const covered = coverage.pendingCoveredAt[key];
  if (covered === undefined) return undefined;
  return Math.max(covered, coverage.pendingReadAt?.[key] ?? covered);
}

function inWindow(byKey: Readonly<Record<string, number>>, windowStart: string): Record<string, number> {
  return Object.fromEntries(Object.entries(byKey).filter(([key]) => coverageKeyDate(key) >= windowStart));
}
