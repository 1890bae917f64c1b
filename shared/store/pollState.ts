// An organization's poll state: what the poll cycle keeps between cycles, one record per phase that writes
// it (the records whose rules are pure live beside those rules in shared/detect). Versioned: a state of an
// older shape is upgraded here, once, as it is read, and nowhere else. On DynamoDB it is one item: its size
// is measured, and trimmed or refused, by pollStateSize.ts.
import * as z from 'zod';
import { EstablishmentSchema } from '../api/schemas.js';
import { type Coverage, CoverageSchema, coverageKey } from '../detect/coverage.js';
import { ListingMemorySchema } from '../detect/listingMemory.js';
import { PrepSummariesSchema } from '../detect/planPrepSummaries.js';
import { UnreadableOrderSchema } from '../detect/unreadableOrders.js';
import { addDays } from '../time/calendarDate.js';

export const POLL_STATE_VERSION = 2;

const timesByKey = z.record(z.string(), z.number());

/** The terminal sweep's progress (the sweep phase's record). */
export const SweepStateSchema = z.object({
  /** The terminal listing being swept, and the page the next cycle resumes at. */
  inProgress: z
    .object({
      key: z.string(),
      nextPage: z.number().int().positive(),
      startedAt: z.number(),
      /** In a baseline pass, read a pickup date at a time: the date the next cycle reads. */
      nextDate: z.string().optional(),
      /** In a baseline pass, the orders the last date read held. */
      dateSize: z.number().int().nonnegative().optional(),
    })
    .nullable(),
  /** When each terminal listing's last complete sweep began, by key. */
  sweptAt: timesByKey,
  /**
   * Pages owed by the pace but not yet spent (the fraction a cycle could not take whole); below 0 when a
   * baseline date took more than its cycle's share, which the next cycles pay back.
   */
  credit: z.number(),
});

/** Orders that left pending and are not found yet (the resolve phase's record). */
export const LookupsSchema = z.object({
  /** The statuses earlier cycles looked for each order in, by order uuid. */
  searched: z.record(z.string(), z.array(z.string())),
  /** Moving average of the look-up requests a cycle needed: part of the next cycle's expected cost. */
  averageRequests: z.number().nonnegative(),
  /**
   * When each order found in no other status began waiting for pending to be walked on every date of the
   * window (epoch ms), by order uuid: while today is first the window is walked a part at a time.
   */
  waitingSince: z.record(z.string(), z.number()).optional(),
});

/** An establishment record GET /establishments answered but the notifier could not read. */
export const UnreadableEstablishmentSchema = z.object({
  /** Its uuid, when readable. */
  uuid: z.string().optional(),
  page: z.number().int().positive(),
  /** What was wrong with it: `record #0 on the page: working_days: …` (names the field, never a value). */
  detail: z.string(),
});
export type UnreadableEstablishment = z.infer<typeof UnreadableEstablishmentSchema>;

/**
 * The organization's establishments as GET /establishments last gave them (fields the spec does not list
 * kept), and when (epoch ms): their closing times drive prep summaries and the cadence.
 */
export const EstablishmentsCacheSchema = z
  .object({
    fetchedAt: z.number(),
    records: z.array(EstablishmentSchema),
    /**
     * Records the last read skipped as malformed (the page, and what was wrong: the field): their closing
     * times are unknown, so the cadence is fixed and their prep summaries are not sent. Absent in states
     * written before it, and when none was.
     */
    unreadable: z.array(UnreadableEstablishmentSchema).optional(),
  })
  .nullable();

/** When the next cycle is due, and what a cycle costs (the plan-next-cycle phase's record). */
export const PaceStateSchema = z.object({
  /** Moving average of the requests a whole cycle made: the gap after a cycle pays for one such. */
  averageCycleRequests: z.number().nonnegative(),
  /** When this organization's next cycle is due (epoch ms): the pace's decision, read by both runtimes. */
  nextPollAt: z.number().nullable(),
  /**
   * Pending's changes found to today's orders and to other days' (of which edits, each), and the minutes
   * each was found over, summed with decay (changeRates.ts): how today first paces the rest of the window
   * and the whole walks of each (pacePoll.ts). Absent until a cycle found a change; states written before the
   * minutes were kept hold averages a cycle.
   */
  changes: z
    .object({
      today: z.number().nonnegative(),
      elsewhere: z.number().nonnegative(),
      todayEdits: z.number().nonnegative().optional(),
      elsewhereEdits: z.number().nonnegative().optional(),
      todayMinutes: z.number().nonnegative().optional(),
      elsewhereMinutes: z.number().nonnegative().optional(),
    })
    .optional(),
  /** Moving average of the requests today's listing took a cycle while today was first (checked or whole). */
  todayRequests: z.number().nonnegative().optional(),
});

/** How the last cycles went, for status, health and alarms. */
export const PollHealthSchema = z.object({
  lastSuccessAt: z.number().nullable(),
  lastAttemptAt: z.number().nullable(),
  consecutiveFailures: z.number().int().nonnegative(),
  /** One line naming the last failure, never a secret. */
  lastError: z.string().nullable(),
  /**
   * Since when (epoch ms) the API has rejected the organization's token (401 or 403, a TokenRejectedError):
   * the organization is marked "token rejected: put a new token" and tried again slowly until a cycle gets
   * past it. Null otherwise; absent (so null) in states written before it.
   */
  tokenRejectedAt: z.number().nullable().default(null),
});

export const PollStateSchema = z.object({
  version: z.literal(POLL_STATE_VERSION),
  organizationId: z.string(),
  listings: ListingMemorySchema,
  coverage: CoverageSchema,
  sweep: SweepStateSchema,
  lookups: LookupsSchema,
  establishments: EstablishmentsCacheSchema,
  prepSummaries: PrepSummariesSchema,
  /** Orders whose record was skipped as malformed and has not read well since, by uuid (bounded). */
  unreadable: z.record(z.string(), UnreadableOrderSchema),
  pace: PaceStateSchema,
  health: PollHealthSchema,
});
export type PollState = z.infer<typeof PollStateSchema>;
export type SweepState = z.infer<typeof SweepStateSchema>;
export type Lookups = z.infer<typeof LookupsSchema>;
export type EstablishmentsCache = z.infer<typeof EstablishmentsCacheSchema>;
export type PaceState = z.infer<typeof PaceStateSchema>;
export type PollHealth = z.infer<typeof PollHealthSchema>;

export function initialPollState(organizationId: string): PollState {
  return {
    version: POLL_STATE_VERSION,
    organizationId,
    listings: { sizes: {}, walkedAt: {} },
    coverage: { pendingCoveredAt: {}, watchingSince: null },
    sweep: { inProgress: null, sweptAt: {}, credit: 0 },
    lookups: { searched: {}, averageRequests: 0 },
    establishments: null,
    prepSummaries: {},
    unreadable: {},
    pace: { averageCycleRequests: 0, nextPollAt: null },
    health: {
      lastSuccessAt: null,
      lastAttemptAt: null,
      consecutiveFailures: 0,
      lastError: null,
      tokenRejectedAt: null,
    },
  };
}

/**
 * Version 1: one flat record, written until 0.1.0. Before per-date coverage it knew only "pending was
 * walked over these dates at that time" (`baselined`, `lastWindows`), which the upgrade reads as coverage.
 */
const PollStateV1Schema = z.object({
  organizationId: z.string(),
  listingSizes: z.record(z.string(), z.number().int().nonnegative()),
  lastFetchedAt: timesByKey,
  lastWindows: z.record(z.string(), z.object({ startDate: z.string(), endDate: z.string() })).default({}),
  baselined: z.array(z.string()),
  pendingCoveredAt: timesByKey.default({}),
  watchingSince: z.number().nullable().default(null),
  sweep: SweepStateSchema.shape.inProgress.default(null),
  sweptAt: timesByKey.default({}),
  sweepCredit: z.number().nonnegative().default(0),
  lookups: LookupsSchema.shape.searched.default({}),
  resolutionRequests: z.number().nonnegative().default(0),
  cycleRequests: z.number().nonnegative().default(0),
  unreadable: z.record(z.string(), UnreadableOrderSchema).default({}),
  establishments: EstablishmentsCacheSchema.default(null),
  prepSummaries: PrepSummariesSchema.default({}),
  nextPollAt: z.number().nullable().default(null),
  lastSuccessAt: z.number().nullable(),
  lastAttemptAt: z.number().nullable(),
  consecutiveFailures: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
});
type PollStateV1 = z.infer<typeof PollStateV1Schema>;

function upgradeFromV1(old: PollStateV1): PollState {
  return {
    version: POLL_STATE_VERSION,
    organizationId: old.organizationId,
    listings: { sizes: old.listingSizes, walkedAt: old.lastFetchedAt },
    coverage: coverageOfV1(old),
    sweep: { inProgress: old.sweep, sweptAt: old.sweptAt, credit: old.sweepCredit },
    lookups: { searched: old.lookups, averageRequests: old.resolutionRequests },
    establishments: old.establishments,
    prepSummaries: old.prepSummaries,
    unreadable: old.unreadable,
    pace: { averageCycleRequests: old.cycleRequests, nextPollAt: old.nextPollAt },
    health: {
      lastSuccessAt: old.lastSuccessAt,
      lastAttemptAt: old.lastAttemptAt,
      consecutiveFailures: old.consecutiveFailures,
      lastError: old.lastError,
      tokenRejectedAt: null,
    },
  };
}

/**
 * A state written before per-date coverage (`baselined` keys `pending` or `pending@<establishment>`, a
 * format no longer written) is read as coverage, so an upgrade neither re-baselines nor announces old orders.
 */
function coverageOfV1(old: PollStateV1): Coverage {
  if (Object.keys(old.pendingCoveredAt).length > 0 || old.watchingSince !== null) {
    return { pendingCoveredAt: old.pendingCoveredAt, watchingSince: old.watchingSince };
  }
  const pendingCoveredAt: Record<string, number> = {};
  let watchingSince: number | null = null;
  for (const key of old.baselined) {
    const [status, establishment] = key.split('@');
    const walkedAt = old.lastFetchedAt[key];
    const window = old.lastWindows[key];
    if (status !== 'pending' || walkedAt === undefined || !window) continue;
    watchingSince = Math.min(watchingSince ?? walkedAt, walkedAt);
    for (let date = window.startDate; date <= window.endDate; date = addDays(date, 1)) {
      pendingCoveredAt[coverageKey(date, establishment)] = walkedAt;
    }
  }
  return { pendingCoveredAt, watchingSince };
}

/** The schema a stored poll state of either version is read with; the older one comes out upgraded. */
export function storedPollStateSchema(stored: unknown): z.ZodType<PollState> {
  const versioned = typeof stored === 'object' && stored !== null && 'version' in stored;
  return versioned ? PollStateSchema : PollStateV1Schema.transform(upgradeFromV1);
}

/** A poll state of either version, upgraded: what a migration of stored states runs. */
export function upgradePollState(stored: unknown): PollState {
  return storedPollStateSchema(stored).parse(stored);
}
