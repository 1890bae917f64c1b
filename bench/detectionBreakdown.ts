// Where a detected transition's time went, from the moment the world made it to the cycle that recorded
// its event: waiting for the next walk of pending (and the part of that wait the sweep's requests caused),
// cycles that came but did not detect it (deferred for budget, a look-up deferred or failed, a walk cut
// short, or the change made just after its page was read), and within the detecting cycle the wait for
// budget, its own requests and the sweep slice it walked before recording. Delivery is 0: the bench stops
// at the recorded event.
import { coverageKey } from '../shared/detect/coverage.js';
import { listingKeyEstablishment } from '../shared/detect/listingSpec.js';
import type { PollReport } from '../shared/poll/pollReport.js';
import { addDays } from '../shared/time/calendarDate.js';

export interface BenchCycle {
  organizationId: string;
  report: PollReport;
  startedAt: number;
  endedAt: number;
}

export interface DetectedTransition {
  organizationId: string;
  orderUuid: string;
  /** The order's pickup date: whether a cycle's walks of pending covered it. */
  pickupDate: string;
  changedAt: number;
  detectedAt: number;
}

export const BREAKDOWN_PARTS = [
  'wait_walk',
  'wait_sweep_share',
  'missed_deferred',
  'missed_lookup',
  'missed_walk_cut',
  'missed_unseen',
  'cycle_budget_wait',
  'cycle_requests',
  'cycle_sweep_slice',
  'delivery',
] as const;
export type BreakdownPart = (typeof BREAKDOWN_PARTS)[number];
export type Breakdown = Record<BreakdownPart, number>;

function emptyBreakdown(): Breakdown {
  return Object.fromEntries(BREAKDOWN_PARTS.map((part) => [part, 0])) as Breakdown;
}

/** The pickup dates a cycle walked pending on completely and consistently, as coverage keys (coverage.ts). */
export function walkedPendingDates(report: PollReport): Set<string> {
  const dates = new Set<string>();
  if (report.outcome !== 'polled') return dates;
  for (const listing of report.listings) {
    if (listing.purpose !== 'detect' || !listing.trustworthy) continue;
    const establishment = listingKeyEstablishment(listing.key);
    for (let date = listing.startDate; date <= listing.endDate; date = addDays(date, 1))
      dates.add(coverageKey(date, establishment));
  }
  return dates;
}

/** One transition's time, in seconds, by part; the parts add up to its detection time. */
export function breakDown(
  transition: DetectedTransition,
  cycles: readonly BenchCycle[],
  latencyMs: number,
): Breakdown | undefined {
  const own = cycles.filter((cycle) => cycle.organizationId === transition.organizationId);
  const detecting = own.find((cycle) => cycle.endedAt === transition.detectedAt);
  if (!detecting) return undefined;
  const parts = emptyBreakdown();
  const s = (ms: number) => ms / 1000;
  // The cycles that started after the change and before the detecting one, each missing it for a reason.
  const missed = own.filter(
    (cycle) => cycle.startedAt >= transition.changedAt && cycle.startedAt < detecting.startedAt,
  );
  const first = missed[0] ?? detecting;
  if (first.startedAt > transition.changedAt) {
    const wait = first.startedAt - transition.changedAt;
    // The gap before a cycle follows what the one before it cost: the sweep's share of that is its doing.
    const before = own.filter((cycle) => cycle.startedAt < first.startedAt).at(-1);
    const sweepShare = before ? sweepShareOf(before.report) : 0;
    parts.wait_sweep_share += s(wait * sweepShare);
    parts.wait_walk += s(wait * (1 - sweepShare));
  }
  missed.forEach((cycle, index) => {
    const next = missed[index + 1] ?? detecting;
    parts[whyMissed(cycle.report, transition)] += s(next.startedAt - cycle.startedAt);
  });
  const inCycle = detecting.endedAt - Math.max(detecting.startedAt, transition.changedAt);
  const sweepMs = detecting.report.requestsFor.sweep * latencyMs;
  const requestsMs = (detecting.report.requests - detecting.report.requestsFor.sweep) * latencyMs;
  parts.cycle_sweep_slice += s(Math.min(inCycle, sweepMs));
  parts.cycle_requests += s(Math.min(Math.max(0, inCycle - sweepMs), requestsMs));
  parts.cycle_budget_wait += s(Math.max(0, inCycle - sweepMs - requestsMs));
  return parts;
}

function sweepShareOf(report: PollReport): number {
  return report.requests > 0 ? report.requestsFor.sweep / report.requests : 0;
}

function whyMissed(report: PollReport, transition: DetectedTransition): BreakdownPart {
  if (report.outcome !== 'polled') return 'missed_deferred';
  const walked = [...walkedPendingDates(report)];
  if (!walked.some((date) => date.startsWith(transition.pickupDate))) return 'missed_walk_cut';
  if (report.vanished.some((order) => order.uuid === transition.orderUuid)) return 'missed_lookup';
  return 'missed_unseen';
}

/** The mean of each part over the transitions given. */
export function meanBreakdown(breakdowns: readonly Breakdown[]): Breakdown {
  const mean = emptyBreakdown();
  for (const breakdown of breakdowns)
    for (const part of BREAKDOWN_PARTS) mean[part] += breakdown[part] / breakdowns.length;
  return mean;
}
