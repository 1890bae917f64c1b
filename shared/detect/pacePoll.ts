// How often an organization is polled, and how much of each cycle goes to the slow sweep (pure). The
// token's usable rate, shared equally by the organizations on it, pays first for the sweep at its period
// (at most a fifth of the share), and detection cycles come as often as the rest allows; while today is
// first, what a check of today's listing cannot see waits the slow period (slowPeriodMs). A cycle's requests
// go out together, and the gap after it follows what cycles really cost, so the minute is never spent in
// its first seconds and then starved.

/**
 * The sweep never takes more than this share of an organization's budget, whatever its period: at 30 %, 20
 * organizations on one token went up to 131 s between walks of their pending (docs/benchmarks.md).
 */
const MAX_SWEEP_SHARE = 0.2;
/** While today is first, the sweep yields to it: the slow sweep's period stretches, detection's does not. */
const MAX_SWEEP_SHARE_TODAY_FIRST = 0.1;
/** Until a cycle has found a change, the mix is taken as even: today first then barely stretches the rest. */
const EVEN_MIX = 0.5;
/**
 * While today is first, what a check of today's cannot see (the rest of the window, and an edit, which
 * only a whole walk reads) is paced so that all changes' p95 stays within this.
 */
const ALL_CHANGES_P95_MS = 30_000;
/** The share of changes a p95 leaves later than it. */
const P95_TAIL = 0.05;
/**
 * A change's time beyond its wait for the walk that sees it: the cycle's own requests, a look-up, and a turn
 * behind another part of the rest due at once.
 */
const DETECTION_OVERHEAD_MS = 8_000;
/**
 * However few of the changes are slow ones, the rest of the window and today's whole walk wait at most
 * this long: a first edit after a quiet hour, or the odd order for Thursday, is not left for minutes.
 */
export const SLOW_PERIOD_MAX_MS = 90_000;
const MINUTE_MS = 60_000;
/**
 * The pace plans for this share of the budget. The rest absorbs cycles that cost more than expected (a
 * burst of look-ups), so that the next cycle finds room when it is due instead of waiting for it.
 */
const HEADROOM = 0.9;

export interface PacingInput {
  /** Requests the token may make per minute. */
  usablePerMinute: number;
  /** Organizations polling with this token. */
  organizationsOnToken: number;
  /** Requests a detection cycle takes: pending pages plus the look-ups it usually needs. */
  detectionRequests: number;
  /** Pages the sweep takes per sweep period. */
  sweepPages: number;
  /** How long a full sweep should take. */
  sweepPeriodMs: number;
  /** Never poll more often than this. */
  minIntervalMs: number;
  /** How much later than reserved a cycle's requests are counted: each then fills the window for longer. */
  holdMs: number;
  /**
   * Today first: what today's listing costs a cycle (checked, or now and then walked whole) and the look-ups
   * a cycle brings, the pages of the rest of the window, and the mix of recent changes (undefined before
   * any). `detectionRequests` is then not read.
   */
  todayFirst?:
    | { todayRequests: number; lookups: number; restPages: number; mix: ChangeRates | undefined }
    | undefined;
}

/** Rates per minute of recent changes: to today's orders and to other days' (of which edits, each). */
export interface ChangeRates {
  today: number;
  elsewhere: number;
  todayEdits?: number | undefined;
  elsewhereEdits?: number | undefined;
}

export interface Pacing {
  /** This organization's sustainable requests per minute. */
  perMinute: number;
  /** From one cycle's start to the next, when cycles cost what is expected. */
  intervalMs: number;
  /**
   * While today is first, how long each date of the rest of the window may go unread, and how long today's
   * listing and the rest's may go unwalked whole (only checked): see slowPeriodMs. Infinite otherwise.
   */
  restPeriodMs: number;
  todayWholeMs: number;
  restWholeMs: number;
  /** Sweep pages each cycle carries (fractional: the remainder is carried to the next cycle). */
  sweepPagesPerCycle: number;
  /** How long a full sweep takes at this pace. */
  sweepPeriodMs: number;
  minIntervalMs: number;
  holdMs: number;
}

/**
 * The requests a minute a share of the token may plan for: its usable rate with headroom, less what a
 * reservation held for `holdMs` keeps from the next minute's window.
 */
function plannedPerMinute(usablePerMinute: number, organizations: number, holdMs: number): number {
  return (HEADROOM * (usablePerMinute / Math.max(1, organizations)) * MINUTE_MS) / (MINUTE_MS + holdMs);
}

export function pacePoll(input: PacingInput): Pacing {
  const perMinute = plannedPerMinute(input.usablePerMinute, input.organizationsOnToken, input.holdMs);
  const sweepPerMinute = Math.min(
    input.sweepPages / (input.sweepPeriodMs / MINUTE_MS),
    perMinute * (input.todayFirst ? MAX_SWEEP_SHARE_TODAY_FIRST : MAX_SWEEP_SHARE),
  );
  const detectionPerMinute = perMinute - sweepPerMinute;
  let intervalMs: number;
  let restPeriodMs = Number.POSITIVE_INFINITY;
  let todayWholeMs = Number.POSITIVE_INFINITY;
  let restWholeMs = Number.POSITIVE_INFINITY;
  if (input.todayFirst) {
    const { todayRequests, lookups, restPages, mix } = input.todayFirst;
    restPeriodMs = slowPeriodMs(mix);
    // A check sees what came and went, not an edit: where edits are made, their listings are walked whole
    // as often as the slow changes are read.
    const wholeEvery = (edits: number | undefined) => ((edits ?? 0) > 0 ? restPeriodMs : SLOW_PERIOD_MAX_MS);
    todayWholeMs = wholeEvery(mix?.todayEdits);
    restWholeMs = wholeEvery(mix?.elsewhereEdits);
    // Today's listing and the look-ups every cycle, and the rest at its period: what is left of the budget
    // after the rest's pages sets how often cycles come (never less than a tenth of it).
    const restPerMinute = (restPages * MINUTE_MS) / restPeriodMs;
    const left = Math.max(detectionPerMinute * 0.1, detectionPerMinute - restPerMinute);
    intervalMs = Math.max(input.minIntervalMs, ((todayRequests + lookups) / left) * MINUTE_MS);
  } else {
    intervalMs = Math.max(input.minIntervalMs, (input.detectionRequests / detectionPerMinute) * MINUTE_MS);
  }
  return {
    perMinute,
    intervalMs: Math.round(intervalMs),
    restPeriodMs,
    todayWholeMs,
    restWholeMs,
    sweepPagesPerCycle: (sweepPerMinute * intervalMs) / MINUTE_MS,
    sweepPeriodMs:
      sweepPerMinute > 0
        ? Math.round((input.sweepPages / sweepPerMinute) * MINUTE_MS)
        : Number.POSITIVE_INFINITY,
    minIntervalMs: input.minIntervalMs,
    holdMs: input.holdMs,
  };
}

/**
 * How long, while today is first, a date of the rest of the window may go unread: so long that, with the
 * share `f` of the changes this slow, all changes' p95 stays within ALL_CHANGES_P95_MS. A slow change waits
 * up to the period, evenly; at most P95_TAIL of all changes may wait longer than the p95, so at most
 * P95_TAIL / f of the slow ones: the period is (p95 - overhead) / (1 - P95_TAIL / f). Where four changes in
 * five are today's, 36 s; where half are, 29 s; where almost none are elsewhere, SLOW_PERIOD_MAX_MS. The
 * slow changes are those elsewhere (read when a date is checked or walked whole) and the edits of today's
 * orders, which only a whole walk of today's listing reads; the edits elsewhere are among the first.
 */
export function slowPeriodMs(mix: ChangeRates | undefined): number {
  const all = mix === undefined ? 0 : mix.today + mix.elsewhere;
  const slow = mix === undefined || all === 0 ? EVEN_MIX : (mix.elsewhere + (mix.todayEdits ?? 0)) / all;
  if (slow <= P95_TAIL) return SLOW_PERIOD_MAX_MS;
  return Math.min(SLOW_PERIOD_MAX_MS, ALL_CHANGES_P95_MS / (1 - P95_TAIL / slow) - DETECTION_OVERHEAD_MS);
}

/**
 * The gap a token whose organizations are walked in a round rests after a cycle of `requests` requests:
 * what they cost of the whole token's rate, as the pace plans for it (headroom and hold taken off).
 */
export function roundGapFor(usablePerMinute: number, requests: number, holdMs: number): number {
  return Math.round((Math.max(0, requests) / plannedPerMinute(usablePerMinute, 1, holdMs)) * MINUTE_MS);
}

/** What a cycle may cost at the planned interval: the share's requests over one interval (gapFor's inverse). */
export function plannedCycleRequests(pacing: Pacing): number {
  return (pacing.perMinute * pacing.intervalMs) / MINUTE_MS;
}

/** The gap from one cycle's start to the next for cycles of `requests` requests: what they cost of the share. */
export function gapFor(pacing: Pacing, requests: number): number {
  return Math.round(Math.max(pacing.minIntervalMs, (requests / pacing.perMinute) * MINUTE_MS));
}
