// How often an organization is polled, and how much of each cycle goes to the slow sweep (pure): the
// token's usable rate, shared equally by the organizations on it, pays first for the sweep at its
// configured period (at most half of the share) and then for detection cycles as often as they fit. A
// cycle's requests go out together; the gap after it follows what it cost, so the minute is never spent
// in its first seconds and then starved.

/** The sweep never takes more than this share of an organization's budget, whatever its period. */
const MAX_SWEEP_SHARE = 0.5;

export interface PacingInput {
  /** Requests the token may make per minute, safety margin already taken off. */
  usablePerMinute: number;
  /** Organizations polling with this token. */
  organizationsOnToken: number;
  /** Requests a detection cycle takes: pending pages plus the look-ups it usually needs. */
  detectionRequests: number;
  /** Pages one full sweep of the terminal listings takes. */
  sweepPages: number;
  /** How long a full sweep should take. */
  sweepPeriodMs: number;
  /** Never poll more often than this. */
  minIntervalMs: number;
  /** How much later than reserved a cycle's requests are counted: each then fills the window for longer. */
  holdMs: number;
}

export interface Pacing {
  /** From the start of one cycle to the start of the next. */
  intervalMs: number;
  /** Sweep pages each cycle carries (fractional: the remainder is carried to the next cycle). */
  sweepPagesPerCycle: number;
  /** How long a full sweep takes at this pace. */
  sweepPeriodMs: number;
}

export function pacePoll(input: PacingInput): Pacing {
  const window = 60_000;
  const perMinute =
    ((input.usablePerMinute / Math.max(1, input.organizationsOnToken)) * window) / (window + input.holdMs);
  const sweepPerMinute = Math.min(input.sweepPages / (input.sweepPeriodMs / 60_000), perMinute * MAX_SWEEP_SHARE);
  const detectionPerMinute = perMinute - sweepPerMinute;
  const intervalMs = Math.max(input.minIntervalMs, (input.detectionRequests / detectionPerMinute) * 60_000);
  const sweepPagesPerCycle = (sweepPerMinute * intervalMs) / 60_000;
  return {
    intervalMs: Math.round(intervalMs),
    sweepPagesPerCycle,
    sweepPeriodMs: sweepPerMinute > 0 ? Math.round((input.sweepPages / sweepPerMinute) * 60_000) : Number.POSITIVE_INFINITY,
  };
}
