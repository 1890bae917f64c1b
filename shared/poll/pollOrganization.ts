// The poll cycle of one organization, the one use case the Lambda poller and the CLI share: a short
// sequence of phases, each a function of typed values (docs/architecture.md, "The poll cycle"). It claims the
// lease, plans, reserves the cycle's requests in one go, walks pending, resolves the orders that left it,
// refreshes the establishments, sweeps a slice of the terminal listings, records each change with its
// events, amends the summaries already sent, summarizes the closings, records the catch-ups of stale events
// (AWS), plans the next cycle and saves. The report is made from what the phases returned; the poll state
// is made from the records each phase owns. Every write is fenced by the lease: a cycle that lost it (paused
// past it, and taken over) writes nothing more and reports the loss as a skip. A cycle that throws still
// records its failure as its health; the steps after a cycle (budget, lease) that fail are told on their
// own, never in place of its outcome.

import { TokenRejectedError } from '../api/errors.js';
import { ESTABLISHMENTS_LISTING } from '../api/listingProblem.js';
import { recordCoverage } from '../detect/coverage.js';
import { forgetListingsBefore, rememberWalks } from '../detect/listingMemory.js';
import { trackUnreadable } from '../detect/unreadableOrders.js';
import { LeaseLostError } from '../store/errors.js';
import { initialPollState, type PollState } from '../store/pollState.js';
import { RunnerStoppingError } from '../time/runnerStoppingError.js';
import { amendClosings } from './amendClosings.js';
import { changeSample } from './changeRates.js';
import { claimCycle, leaseLostReport } from './claimCycle.js';
import {
  type CycleContext,
  cycleContext,
  type PollDependencies,
  type PolledOrganization,
} from './cycleContext.js';
import { cycleFailureLine } from './cycleFailureLine.js';
import { type CleanupStep, CycleCleanupError, ListingTooLargeError } from './errors.js';
import { observedOrders } from './observedOrders.js';
import { DEFAULT_LEASE_TERMS, keepLeaseUntil, type LeaseTerms } from './organizationLease.js';
import { type CyclePlan, leastToReserve, planCycle, yieldToToday } from './planCycle.js';
import { planNextCycle, retryDeferredCycle } from './planNextCycle.js';
import {
  apiUnreachable,
  joinNotes,
  notesOfWalks,
  type PollReport,
  pendingShortfall,
  tokenRejected,
} from './pollReport.js';
import { recordCatchUps } from './recordCatchUps.js';
import { recordChanges } from './recordChanges.js';
import { refreshEstablishments } from './refreshEstablishments.js';
import { resolveVanished } from './resolveVanished.js';
import { healthAfter, saveCycle } from './saveCycle.js';
import { summarizeClosings } from './summarizeClosings.js';
import { sweepTerminal } from './sweepTerminal.js';
import { stopsCycle, type WalkOutcome } from './walkListing.js';
import { walkPending } from './walkPending.js';

/** What a cycle that ran reports, before the requests and the budget left are counted. */
type CycleReport = Omit<PollReport, 'organization' | 'requests' | 'budgetRemaining'>;

export async function pollOrganization(
  organization: PolledOrganization,
  deps: PollDependencies,
): Promise<PollReport> {
  const context = cycleContext(organization, deps, deps.clock());
  const requestsBefore = deps.api.requestCount;
  const organizationNamed = { id: organization.id, name: organization.name };
  const claim = await claimCycle(context);
  if (!claim.held) {
    return {
      organization: organizationNamed,
      ...emptyCycle(context.startedAt + organization.pollIntervalSeconds * 1000),
      outcome: 'skipped',
      reason: claim.reason,
      ...(claim.holder === undefined ? {} : { leaseHolder: claim.holder }),
      requests: 0,
      budgetRemaining: 0,
    };
  }
  const lease = deps.lease ?? DEFAULT_LEASE_TERMS;
  let state: PollState | undefined;
  let report: CycleReport;
  try {
    state = (await deps.store.loadPollState(organization.id)) ?? initialPollState(organization.id);
    report = await runCycle(context, state);
  } catch (error) {
    // Not an error of this run: another took the organization over, and its state stands. Said once, in
    // the cycle's line; the next cycle claims the lease anew, or stands by as any skipped one.
    if (!(error instanceof LeaseLostError)) {
      await afterFailedCycle(context, lease, state, error);
      throw error;
    }
    report = leaseLostCycle(context, error);
  }
  await afterSavedCycle(context, lease, report);
  return {
    organization: organizationNamed,
    ...report,
    ...(claim.takenOverFrom === undefined ? {} : { leaseTakenOverFrom: claim.takenOverFrom }),
    requests: deps.api.requestCount - requestsBefore,
    budgetRemaining: await cleanup(context, 'read the request budget left', () =>
      deps.api.budget.remaining(),
    ),
  };
}

/** Plans, reserves, walks (or defers) and saves: the cycle whose report it returns. */
async function runCycle(context: CycleContext, state: PollState): Promise<CycleReport> {
  const { deps, organization } = context;
  const snapshots = await deps.store.loadSnapshots(organization.id);
  const planned = planCycle(context, state, snapshots, deps.api.budget);
  // Pending must fit before anything is walked, so the cycle waits, if it must, before its first request
  // rather than in the middle of a walk; the sweep gets what else the window has room for. While today is
  // first, today's pages are what must fit: the window's walk waits for room, today's does not.
  const granted = await deps.api.budget.reserve(leastToReserve(planned), planned.planned);
  const plan = yieldToToday(planned, granted);
  const end =
    granted === 0 ? deferredCycle(context, plan, state) : await walkedCycle(context, plan, state, snapshots);
  try {
    await saveCycle(context, end.next);
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    // The events the cycle recorded before the refused save stand, and are told.
    return leaseLostCycle(context, error, end.report);
  }
  return end.report;
}

/** A cycle whose lease another run took over during it: a skip naming the loss, with what it recorded. */
function leaseLostCycle(context: CycleContext, error: LeaseLostError, ran?: CycleReport): CycleReport {
  return {
    ...emptyCycle(context.startedAt + context.organization.pollIntervalSeconds * 1000),
    ...(ran === undefined ? {} : { events: ran.events, sourceTimes: ran.sourceTimes }),
    ...leaseLostReport(error),
  };
}

/**
 * After a saved cycle: the budget not spent goes back, and a run that keeps its lease renews it. A failure
 * of either is told on its own; the cycle saved, and its report stands.
 */
async function afterSavedCycle(context: CycleContext, lease: LeaseTerms, report: CycleReport): Promise<void> {
  const { deps, organization } = context;
  await cleanup(context, 'release the request budget', () => deps.api.budget.release());
  // A lease lost to another run is that run's now: renewing it would take it back.
  if (lease.heldFor === 'run' && report.leaseLost !== true) {
    // Lost meanwhile to another run, the next claim says so: that cycle is skipped, naming the holder.
    await cleanup(context, 'renew the lease', () =>
      keepLeaseUntil(deps.store, organization.id, deps.runId, deps.clock(), report.nextPollAt, lease),
    );
  }
}

/**
 * After a cycle that threw: the budget not spent goes back, and the poll state as loaded is saved with this
 * cycle's failure as its health, so status, /healthz and the alarm say what failed now; a lease held for
 * the cycle goes back in that write. A cycle the runner stopped failed nothing: only the lease goes back.
 * Never throws: each step that fails is told on its own, and the cycle's error is what the caller throws.
 */
async function afterFailedCycle(
  context: CycleContext,
  lease: LeaseTerms,
  state: PollState | undefined,
  error: unknown,
): Promise<void> {
  const { deps, organization, startedAt } = context;
  await cleanup(context, 'release the request budget', () => deps.api.budget.release());
  // Without the state as loaded there is nothing to record the health in that would not overwrite the rest.
  const failed = state !== undefined && !(error instanceof RunnerStoppingError);
  const recorded =
    failed &&
    (await cleanup(context, "record the failed cycle's health", async () => {
      const failure = {
        outcome: 'polled' as const,
        failures: [cycleFailureLine(organization.name, error)],
        ...(error instanceof TokenRejectedError ? { tokenRejected: true as const } : {}),
      };
      await saveCycle(context, { ...state, health: healthAfter(state.health, failure, startedAt) });
      return true;
    }));
  // A run that keeps its lease keeps it even then: it is alive.
  if (!recorded && lease.heldFor === 'cycle') {
    await cleanup(context, 'give back the lease', () => deps.store.releaseLease(organization.id, deps.runId));
  }
}

/** A step after the cycle: its result, or null once its failure is told to the runtime. */
async function cleanup<T>(
  context: CycleContext,
  step: CleanupStep,
  run: () => Promise<T>,
): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    context.deps.onCleanupFailure(new CycleCleanupError(context.organization.name, step, error));
    return null;
  }
}

interface CycleEnd {
  report: CycleReport;
  /** The poll state to save. */
  next: PollState;
}

function deferredCycle(context: CycleContext, plan: CyclePlan, state: PollState): CycleEnd {
  const pace = retryDeferredCycle(plan, state.pace, context.deps.clock());
  const report: CycleReport = {
    ...emptyCycle(pace.nextPollAt ?? context.startedAt),
    outcome: 'deferred',
    reason: 'the token has no request budget left for pending now',
    deferred: plan.detection.map((walk) => walk.key),
    cadence: plan.cadence.mode,
  };
  return { report, next: { ...state, pace, health: healthAfter(state.health, report, context.startedAt) } };
}

async function walkedCycle(
  context: CycleContext,
  plan: CyclePlan,
  state: PollState,
  snapshots: PollSnapshots,
): Promise<CycleEnd> {
  const { startedAt, window } = context;
  const pending = await walkPending(context, plan.detection, snapshots);
  const resolution = await resolveVanished(context, snapshots, pending, state.lookups, state.coverage);
  const looked = [...pending, ...resolution.outcomes];
  // Before the sweep, which fills what room is left: the cache's request is taken from that room.
  const establishments = await refreshEstablishments(
    context,
    state.establishments,
    observedOrders(looked).values(),
    stopsCycle(looked),
  );
  const slice = await sweepTerminal(context, state, {
    sweepBudget: plan.sweepBudget,
    room: Math.max(0, plan.planned - requestsOf(looked) - (establishments.requests ?? 0)),
    ahead: plan.detectionRequests + plan.lookupAllowance,
    stopped: stopsCycle(looked) || establishments.stopsCycle,
  });
  const swept = slice.outcome ? [slice.outcome, ...(slice.further ?? [])] : [];
  const walked = [...looked, ...swept];
  const observed = observedOrders(walked);
  const changes = await recordChanges(context, {
    snapshots,
    observed,
    missing: resolution.missing,
    coverage: state.coverage,
    prepSummaries: state.prepSummaries,
    establishments: establishments.cache,
  });
  const coverage = recordCoverage(state.coverage, pending, startedAt, window.startDate);
  const walkNotes = joinNotes(
    notesOfWalks(context, looked),
    establishments.notes,
    notesOfWalks(context, swept),
  );
  // Before the summaries of this cycle: it amends those its order events were after closing for.
  const amended = await amendClosings(context, {
    prepSummaries: state.prepSummaries,
    events: changes.afterClosing,
    snapshots,
    observed,
    establishments: establishments.cache,
  });
  const closings = await summarizeClosings(context, {
    prepSummaries: amended.prepSummaries,
    establishments: establishments.cache,
    coverage,
    shortfall: pendingShortfall(walkNotes),
    observed,
    snapshots,
  });
  const catchUps = await recordCatchUps(context, { ...changes, health: state.health });
  const rejected = tokenRejected(walked) || establishments.tokenRejected === true;
  const pace = planNextCycle(context, plan, state.pace, {
    spent: requestsOf(walked) + (establishments.requests ?? 0),
    baselineDeferred: slice.baselineDeferred,
    tokenRejected: rejected,
    changes: changeSample(changes.events, {
      today: context.today,
      startedAt,
      previousCycleAt: state.health.lastAttemptAt,
      walks: plan.detection,
      coverage: state.coverage,
      otherDaysShare: plan.otherDaysShare,
    }),
    todayRequests:
      plan.today === undefined
        ? undefined
        : requestsOf(pending.filter((outcome) => plan.today?.some((walk) => walk.key === outcome.walk.key))),
  });
  const tooLarge = plan.unwalkable.map(
    (walk) =>
      new ListingTooLargeError(
        context.organization.name,
        walk.key,
        walk.estimatedRequests,
        { usablePerMinute: context.deps.api.budget.usablePerMinute },
        'detect',
      ).message,
  );
  const failures = [
    ...tooLarge,
    ...(slice.tooLarge ? [slice.tooLarge.message] : []),
    ...walkNotes.failures,
    ...amended.failures,
    ...closings.failures,
  ];
  const requestsFor = (purpose: 'detect' | 'resolve' | 'sweep') =>
    requestsOf(walked.filter((outcome) => outcome.walk.purpose === purpose));
  const report: CycleReport = {
    outcome: 'polled',
    ok: failures.length === 0,
    // The establishments refresh is not tried once the walks found the API unreachable.
    ...(apiUnreachable(walked) ? { apiUnreachable: true as const } : {}),
    ...(rejected ? { tokenRejected: true as const } : {}),
    requestsFor: {
      detect: requestsFor('detect'),
      resolve: requestsFor('resolve'),
      sweep: requestsFor('sweep'),
      ...(establishments.requests === undefined ? {} : { establishments: establishments.requests }),
    },
    listings: walkNotes.listings,
    deferred: walkNotes.deferred,
    ordersSeen: observed.size,
    vanished: resolution.vanished,
    events: [...changes.events, ...amended.events, ...closings.events, ...catchUps],
    sourceTimes: changes.sourceTimes,
    conflicts: changes.conflicts,
    failures,
    problems: walkNotes.problems,
    nextPollAt: pace.nextPollAt ?? startedAt,
    // A rejected token's slow retry holds in a round too: its turn is not due before it.
    earliestNextPollAt: rejected
      ? (pace.nextPollAt ?? startedAt)
      : Math.min(pace.nextPollAt ?? startedAt, startedAt + plan.cadence.minIntervalMs),
    cadence: plan.cadence.mode,
    ...(plan.todayOnly ? { todayOnly: true as const } : {}),
  };
  const next: PollState = {
    ...state,
    listings: forgetListingsBefore(rememberWalks(state.listings, walked, startedAt), window.startDate),
    coverage,
    sweep: slice.sweep,
    lookups: resolution.lookups,
    establishments: establishments.cache,
    prepSummaries: closings.prepSummaries,
    unreadable: trackUnreadable(state.unreadable, {
      // The orders' records: an unreadable establishment is named by the cache instead.
      problems: walkNotes.problems.filter((problem) => problem.listing !== ESTABLISHMENTS_LISTING),
      readWell: new Set(observed.keys()),
      now: startedAt,
    }),
    pace,
    health: healthAfter(state.health, report, startedAt),
  };
  return { report, next };
}

/** What these walks cost: each outcome carries its requests, so no phase reads the client's running count. */
function requestsOf(outcomes: readonly WalkOutcome[]): number {
  return outcomes.reduce((sum, { requests }) => sum + requests, 0);
}

type PollSnapshots = Awaited<ReturnType<PollDependencies['store']['loadSnapshots']>>;

function emptyCycle(nextPollAt: number): CycleReport {
  return {
    outcome: 'polled',
    ok: true,
    requestsFor: { detect: 0, resolve: 0, sweep: 0 },
    listings: [],
    deferred: [],
    ordersSeen: 0,
    vanished: [],
    events: [],
    sourceTimes: {},
    conflicts: 0,
    failures: [],
    problems: [],
    nextPollAt,
  };
}
