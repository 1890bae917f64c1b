// Whether an organization is overdue (pure): the one rule behind `meal-notifier status` (locally and with
// --stack), the local runner's /healthz and the AWS "organizations not polled" alarm (the watchdog counts
// the overdue organizations once a minute, OrganizationsOverdue). Overdue is no successful cycle within the allowance of the
// interval the organization's pace last planned (its cadence and the token's budget decide it).

const MINUTE_MS = 60_000;

/**
 * Consecutive one-minute periods the alarm waits, each overdue or without data, before it notifies: one
 * late watchdog run is not an outage. Infra's alarm and the rule's allowance both count on it.
 */
export const OVERDUE_ALARM_PERIODS = 2;
export const OVERDUE_ALARM_PERIOD_MS = MINUTE_MS;

/** What the rule reads: the poll state's health and pace, and the config's shortest gap. */
export interface OverdueInput {
  /** The config's shortest gap between cycles (the floor of the planned interval). */
  pollIntervalSeconds: number;
  /** epoch ms; null before the first successful cycle */
  lastSuccessAt: number | null;
  /** epoch ms; null before the first cycle */
  lastAttemptAt: number | null;
  /** epoch ms: when the pace planned the next cycle; null before the first cycle */
  nextPollAt: number | null;
  /** The API rejects the token: its slow retry is no planned interval (see plannedIntervalMs). */
  tokenRejected?: boolean;
}

export interface OverdueVerdict {
  overdue: boolean;
  /** The interval the pace planned, never less than the config's shortest gap. */
  intervalMs: number;
  /** How long without a successful cycle the organization may go: allowanceMs(intervalMs). */
  allowanceMs: number;
  /** Since the last successful cycle; null when none ever succeeded. */
  ageMs: number | null;
}

/**
 * The gap the organization is polled at: what its pace last decided (the token's budget may space cycles
 * further apart than the config asks, the cadence spaces them out on a day no establishment works), never
 * less than the config's shortest gap.
 */
export function plannedIntervalMs(input: OverdueInput): number {
  const floor = input.pollIntervalSeconds * 1000;
  // A rejected token is retried only every few minutes, which is an outage waiting for a person, not a pace:
  // measured against that retry, the "not polled" alarm would wait twice as long to say so.
  if (input.tokenRejected === true) return floor;
  if (input.nextPollAt === null || input.lastAttemptAt === null) return floor;
  return Math.max(floor, input.nextPollAt - input.lastAttemptAt);
}

/**
 * The outage bound: a real outage notifies within max(5 minutes, 2 × the planned interval + 1 minute)
 * of the last successful cycle.
 */
export function outageBoundMs(intervalMs: number): number {
  return Math.max(5 * MINUTE_MS, 2 * intervalMs + MINUTE_MS);
}

/**
 * How long without success before the organization is overdue: the outage bound less the periods the
 * alarm waits and the period in which the organization turned overdue (CloudWatch decides at a period's
 * end), so the alarm notifies within the bound: 2 minutes at most intervals, 2 × the interval − 2 minutes
 * past 2.5 minutes. One failed or late cycle between two successes is weather: the alarm wants two
 * overdue periods in a row.
 */
export function allowanceMs(intervalMs: number): number {
  return outageBoundMs(intervalMs) - (OVERDUE_ALARM_PERIODS + 1) * OVERDUE_ALARM_PERIOD_MS;
}

/** Overdue: no successful cycle ever, or none within the allowance of the planned interval. */
export function assessOverdue(input: OverdueInput, nowMs: number): OverdueVerdict {
  const intervalMs = plannedIntervalMs(input);
  const allowance = allowanceMs(intervalMs);
  if (input.lastSuccessAt === null) {
    return { overdue: true, intervalMs, allowanceMs: allowance, ageMs: null };
  }
  const ageMs = nowMs - input.lastSuccessAt;
  return { overdue: ageMs > allowance, intervalMs, allowanceMs: allowance, ageMs };
}
