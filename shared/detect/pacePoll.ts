// How often an organization is polled, and how much of each cycle goes to the slow sweep (pure). The
// token's usable rate, shared equally by the organizations on it, pays first for the sweep at its period
// (at most a fifth of the share), and detection cycles come as often as the rest allows. A cycle's requests
// go out together, and the gap after it follows what cycles really cost, so the minute is never spent in
// its first seconds and then starved.

/**
 * The sweep never takes more than this share of an organization's budget, whatever its period: at 30 %, 20
 * organizations on one token went up to 131 s between walks of their pending (docs/benchmarks.md).
 */
const MAX_SWEEP_SHARE = 0.2;
/** While today is first, the sweep yields to it: the slow sweep's period stretches, detection's does not. */
const MAX_SWEEP_SHARE_TODAY_FIRST = 0.1;
/**
 * While today is first, the rest of the window is walked in at most this many parts, one a cycle, however few
 * of the changes it sees: a change there waits at most this many cycles.
 */
const MAX_REST_PARTS = 2;
/** Until a cycle has found a change, the mix is taken as even: today first then barely stretches the rest. */
const EVEN_MIX = 0.5;
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
   * Today first: today's pending pages and the look-ups a cycle brings, walked every cycle, the pages of the
   * rest of the window, and the share of recent changes that were to today's orders (undefined before any).
   * `detectionRequests` is then not read.
   */
  todayFirst?:
    | { todayPages: number; lookups: number; restPages: number; todayShare: number | undefined }
    | undefined;
}

export interface Pacing {
  /** This organization's sustainable requests per minute. */
  perMinute: number;
  /** From one cycle's start to the next, when cycles cost what is expected. */
  intervalMs: number;
  /**
   * While today is first, the parts the rest of the window is walked in, one beside today's listing each
   * cycle, so that every cycle costs about the same; 1 otherwise.
   */
  restParts: number;
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
  let restParts = 1;
  if (input.todayFirst) {
    const { todayPages, lookups, restPages, todayShare } = input.todayFirst;
    const everyCycle = todayPages + lookups;
    // The periods that make the mean detection time least for this budget, each part's changes waiting
    // half its period on average, are in the ratio √(rest's pages × today's share of the changes ÷ (today's
    // requests × the rest's share)): the busier today is, the longer the rest waits. The rest is walked in
    // that many parts, one a cycle, rather than whole every few cycles: a cycle that costs twice the others
    // waits for the rolling minute to free its requests, and holds back all it saw.
    const share = Math.min(0.95, Math.max(0.05, todayShare ?? EVEN_MIX));
    const ratio = Math.sqrt((restPages * share) / (Math.max(1, everyCycle) * (1 - share)));
    restParts = Math.min(MAX_REST_PARTS, Math.max(1, Math.round(ratio)), Math.max(1, restPages));
    intervalMs = Math.max(
      input.minIntervalMs,
      ((everyCycle + restPages / restParts) / detectionPerMinute) * MINUTE_MS,
    );
  } else {
    intervalMs = Math.max(input.minIntervalMs, (input.detectionRequests / detectionPerMinute) * MINUTE_MS);
  }
  return {
    perMinute,
    intervalMs: Math.round(intervalMs),
    restParts,
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
 * The gap a token whose organizations are walked in a round rests after a cycle of `requests` requests:
 * what they cost of the whole token's rate, as the pace plans for it (headroom and hold taken off).
 */
export function roundGapFor(usablePerMinute: number, requests: number, holdMs: number): number {
  return Math.round((Math.max(0, requests) / plannedPerMinute(usablePerMinute, 1, holdMs)) * MINUTE_MS);
}

/** The gap from one cycle's start to the next for cycles of `requests` requests: what they cost of the share. */
export function gapFor(pacing: Pacing, requests: number): number {
  return Math.round(Math.max(pacing.minIntervalMs, (requests / pacing.perMinute) * MINUTE_MS));
}
