// How often an organization is polled, and how much of each cycle goes to the slow sweep (pure). The
// token's usable rate, shared equally by the organizations on it, pays first for the sweep at its period
// (at most half of the share), and detection cycles come as often as the rest allows. A cycle's requests
// go out together, and the gap after it follows what cycles really cost, so the minute is never spent in
// its first seconds and then starved.

/** The sweep never takes more than this share of an organization's budget, whatever its period: detection
 *  always keeps the larger part. */
const MAX_SWEEP_SHARE = 0.3;
/** While today is first, the sweep yields to it: the slow sweep's period stretches, detection's does not. */
const MAX_SWEEP_SHARE_TODAY_FIRST = 0.2;
/**
 * While today is first, today's walks and the look-ups they bring take at most this share of what the sweep
 * leaves; the rest walks the whole window.
 */
const TODAY_SHARE = 0.7;
/**
 * Today first never leaves the whole window more than this many times as long unwalked as it would be: at
 * twice, the calm canteen's changes to other days waited long enough to lift its p95 (docs/benchmarks.md).
 */
const MAX_REST_STRETCH = 1.5;
const MINUTE_MS = 60_000;
/**
 * The pace plans for this share of the budget. The rest absorbs cycles that cost more than expected (a
 * burst of look-ups), so that the next cycle finds room when it is due instead of waiting for it.
 */
const HEADROOM = 0.9;

export interface PacingInput {
  /** Requests the token may make per minute, safety margin already taken off. */
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
   * Today first: today's pending pages and the look-ups a cycle brings, walked every cycle, and the whole
   * window's pages, walked as often as the rest allows. `detectionRequests` is then not read.
   */
  todayFirst?: { todayPages: number; lookups: number; windowPages: number } | undefined;
}

export interface Pacing {
  /** This organization's sustainable requests per minute. */
  perMinute: number;
  /** From one cycle's start to the next, when cycles cost what is expected. */
  intervalMs: number;
  /** From one walk of the whole pending window to the next: `intervalMs` unless today is first. */
  restIntervalMs: number;
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
  let restIntervalMs: number;
  if (input.todayFirst) {
    const { todayPages, lookups, windowPages } = input.todayFirst;
    const everyCycle = todayPages + lookups;
    const plainMs = Math.max(input.minIntervalMs, ((windowPages + lookups) / detectionPerMinute) * MINUTE_MS);
    intervalMs = Math.max(input.minIntervalMs, (everyCycle / (detectionPerMinute * TODAY_SHARE)) * MINUTE_MS);
    // A walk of the window stands for that cycle's walk of today: it costs only the difference.
    const leftPerMinute = detectionPerMinute - (everyCycle / intervalMs) * MINUTE_MS;
    restIntervalMs = Math.max(intervalMs, ((windowPages - todayPages) / leftPerMinute) * MINUTE_MS);
    if (restIntervalMs > MAX_REST_STRETCH * plainMs) {
      // Fairness first: the window keeps its stretched pace, and today's takes what that leaves.
      restIntervalMs = MAX_REST_STRETCH * plainMs;
      const restPerMinute = ((windowPages - todayPages) / restIntervalMs) * MINUTE_MS;
      intervalMs = Math.max(
        input.minIntervalMs,
        (everyCycle / Math.max(1e-9, detectionPerMinute - restPerMinute)) * MINUTE_MS,
      );
      restIntervalMs = Math.max(intervalMs, restIntervalMs);
    }
  } else {
    intervalMs = Math.max(input.minIntervalMs, (input.detectionRequests / detectionPerMinute) * MINUTE_MS);
    restIntervalMs = intervalMs;
  }
  return {
    perMinute,
    intervalMs: Math.round(intervalMs),
    restIntervalMs: Math.round(restIntervalMs),
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
