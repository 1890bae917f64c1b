// The retry schedule of every transient delivery failure: Svix's (0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
// 10 h) with ±20 % jitter, never sooner than the receiver's Retry-After.

export const RETRY_SCHEDULE_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

const JITTER = 0.2;

/**
 * The wait before the next attempt to deliver an event to a subscriber (seconds to hours), or undefined
 * once the schedule is spent (the event goes to the dead letters).
 * @param attemptsMade attempts so far, the failed one included (1 after the first failure)
 * @param random a number in [0, 1), injected so tests can pin the jitter
 */
export function deliveryRetryDelay(
  attemptsMade: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const step = RETRY_SCHEDULE_MS[attemptsMade];
  if (step === undefined) return undefined;
  const jittered = Math.round(step * (1 - JITTER + 2 * JITTER * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}
