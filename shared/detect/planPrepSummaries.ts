// Which prep summaries a cycle records (pure): every establishment's closing that has passed, on a working
// day, for a date still in the window, not yet recorded. Complete when a pending walk over that date (and
// establishment) began at or after the closing time; incomplete, with why, once the grace has run out.
import * as z from 'zod';
import { type Closing, closingsOn, type EstablishmentSchedule } from './closingTimes.js';
import { coverageKey } from './coverage.js';

/**
 * How long after a closing a summary waits for a pending walk begun after it: then it is sent marked
 * incomplete, rather than late or never.
 */
export const PREP_SUMMARY_GRACE_MS = 5 * 60_000;

/**
 * What a kitchen last heard it must prepare, by sku: the summary's figures, then each prep_changed's.
 * Units of zero are left out.
 */
export const HeardItemsSchema = z.record(
  z.string(),
  z.object({ name: z.string(), quantity: z.number().int().positive() }),
);
export type HeardItems = z.infer<typeof HeardItemsSchema>;

/**
 * The summaries recorded, kept between cycles, by prepSummaryKey: their event id, the closing instant
 * (epoch ms) and whether the figures were complete. An order event for one of these is after closing.
 * `items`, what the kitchen last heard (planPrepChanges.ts), is absent from summaries recorded before it
 * was kept, and from those whose totals outgrew HEARD_ITEMS_MAX_BYTES: optional with no default, because
 * an empty default would read as "the kitchen heard of nothing" and make every later unit look new.
 * States stored before it parse as they are.
 */
export const PrepSummariesSchema = z.record(
  z.string(),
  z.object({
    eventId: z.string(),
    closedAt: z.number(),
    complete: z.boolean(),
    items: HeardItemsSchema.optional(),
  }),
);
export type PrepSummaries = z.infer<typeof PrepSummariesSchema>;
export type PrepSummaryRecord = PrepSummaries[string];

/** `<establishment uuid, lower case>|<pickup date>`. */
export function prepSummaryKey(establishmentUuid: string, pickupDate: string): string {
  return `${establishmentUuid.toLowerCase()}|${pickupDate}`;
}

/** The pickup date a summary's key names. */
export function prepSummaryKeyDate(key: string): string {
  return key.split('|')[1] ?? '';
}

/** The summaries of pickup dates from `windowStart` on: older ones can no longer be amended. */
export function forgetSummariesBefore(summaries: PrepSummaries, windowStart: string): PrepSummaries {
  return Object.fromEntries(
    Object.entries(summaries).filter(([key]) => prepSummaryKeyDate(key) >= windowStart),
  );
}

export interface PrepSummaryPlanInput {
  establishments: readonly EstablishmentSchedule[];
  /** Configured establishments (only these are watched, so only these summed up); undefined: all. */
  watched: readonly string[] | undefined;
  timeZone: string;
  now: number;
  /** Dates to look at, oldest first: the window's past days up to today. */
  dates: readonly string[];
  /** Keys of the summaries already recorded. */
  recorded: ReadonlySet<string>;
  /** Per coverage key (coverage.ts): when the last complete pending walk over it began, this cycle's included. */
  pendingCoveredAt: Readonly<Record<string, number>>;
  /** Why this cycle walked no pending listing completely, when it did not; for the incomplete reason. */
  shortfall: string | undefined;
  /**
   * When the first complete pending walk began (the poll state's `watchingSince`): a closing before it
   * passed while nobody watched, and its figures can no longer be had, so it gets no summary.
   */
  watchingSince: number | null;
}

export interface DueSummary {
  closing: Closing;
  /** Absent when the figures come from a pending walk begun after closing. */
  incompleteReason?: string;
}

export function planPrepSummaries(input: PrepSummaryPlanInput): DueSummary[] {
  const watched = input.watched?.map((uuid) => uuid.toLowerCase());
  const establishments = input.establishments.filter(
    (establishment) => watched === undefined || watched.includes(establishment.uuid.toLowerCase()),
  );
  const due: DueSummary[] = [];
  for (const date of input.dates) {
    for (const closing of closingsOn(establishments, date, input.timeZone)) {
      if (closing.closesAt > input.now) continue;
      if (input.watchingSince === null || closing.closesAt < input.watchingSince) continue;
      if (input.recorded.has(prepSummaryKey(closing.establishment.uuid, date))) continue;
      const key = coverageKey(date, watched === undefined ? undefined : closing.establishment.uuid);
      const coveredAt = input.pendingCoveredAt[key];
      const graceEnds = closing.closesAt + PREP_SUMMARY_GRACE_MS;
      // Only a walk soon after closing counts what is to cook: later, orders already picked up are gone.
      if (coveredAt !== undefined && coveredAt >= closing.closesAt && coveredAt <= graceEnds) {
        due.push({ closing });
      } else if (input.now >= graceEnds) {
        const why =
          coveredAt !== undefined && coveredAt > graceEnds
            ? 'the first pending walk after closing began too late (the runner was not polling), so orders completed since closing are missing'
            : (input.shortfall ?? 'no pending walk began after closing');
        due.push({
          closing,
          incompleteReason: `the pending listing could not be walked completely within ${PREP_SUMMARY_GRACE_MS / 60_000} minutes of closing: ${why}`,
        });
      }
    }
  }
  return due;
}

/** What the cycle knows of one order, for counting cancellations. */
export interface OrderSighting {
  establishmentUuid: string;
  pickupDate: string;
  /** RFC 3339, or null when never canceled. */
  canceledAt: string | null;
}

/** Orders of the closing's establishment and date canceled before it closed (archived ones included). */
export function canceledBeforeClosing(sightings: Iterable<OrderSighting>, closing: Closing): number {
  let count = 0;
  for (const sighting of sightings) {
    if (sighting.canceledAt === null || sighting.pickupDate !== closing.pickupDate) continue;
    if (sighting.establishmentUuid.toLowerCase() !== closing.establishment.uuid.toLowerCase()) continue;
    const at = Date.parse(sighting.canceledAt);
    if (!Number.isNaN(at) && at < closing.closesAt) count += 1;
  }
  return count;
}
