// The poll cycle of one organization, the one use case the Lambda poller and the CLI share: a short
// sequence of phases, each a function of typed values (docs/architecture.md, "The poll cycle"). It claims the
// lease, plans, reserves the cycle's requests in one go, walks pending, resolves the orders that left it,
// refreshes the establishments, sweeps a slice of the terminal listings, records each change with its
// events, amends the summaries already sent, summarizes the closings, records the catch-ups of stale events
// (AWS), plans the next cycle and saves. The report is made from what the phases returned; the poll state
// is made from the records each phase owns.

import { ESTABLISHMENTS_LISTING } from '../api/listingProblem.js';
import { recordCoverage } from '../detect/coverage.js';
import { forgetListingsBefore, rememberWalks } from '../detect/listingMemory.js';
import { trackUnreadable } from '../detect/unreadableOrders.js';
import { initialPollState, type PollState } from '../store/pollState.js';
import { amendClosings } from './amendClosings.js';
import { claimCycle } from './claimCycle.js';
import {
  type CycleContext,
  cycleContext,
  type PollDependencies,
  type PolledOrganization,
} from './cycleContext.js';
import { observedOrders } from './observedOrders.js';
import { DEFAULT_LEASE_TERMS, keepLeaseUntil } from './organizationLease.js';
import { type CyclePlan, planCycle } from './planCycle.js';
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
import { stopsCycle } from './walkListing.js';
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
  let saved = false;
  let report: CycleReport;
  try {
    const state = (await deps.store.loadPollState(organization.id)) ?? initialPollState(organization.id);
    const snapshots = await deps.store.loadSnapshots(organization.id);
    const plan = planCycle(context, state, snapshots, deps.api.budget);
    // Pending must fit before anything is walked, so the cycle waits, if it must, before its first request
    // rather than in the middle of a walk; the sweep gets what else the window has room for.
    const granted = await deps.api.budget.reserve(plan.detectionRequests, plan.planned);
    const end =
      granted === 0
        ? deferredCycle(context, plan, state)
        : await walkedCycle(context, plan, state, snapshots);
    await saveCycle(context, end.next);
    saved = true;
    report = end.report;
    if (lease.heldFor === 'run') {
      // Lost meanwhile to another run, the next claim says so: that cycle is skipped, naming the holder.
      await keepLeaseUntil(deps.store, organization.id, deps.runId, deps.clock(), report.nextPollAt, lease);
    }
  } finally {
    await deps.api.budget.release();
    // A lease held for the cycle normally goes back in the same write as the poll state; only a cycle that
    // failed before saving gives it back on its own. A run that keeps it keeps it even then: it is alive.
    if (!saved && lease.heldFor === 'cycle') await deps.store.releaseLease(organization.id, deps.runId);
  }
  return {
    organization: organizationNamed,
    ...report,
    ...(claim.takenOverFrom === undefined ? {} : { leaseTakenOverFrom: claim.takenOverFrom }),
    requests: deps.api.requestCount - requestsBefore,
    budgetRemaining: await deps.api.budget.remaining(),
  };
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
  const { deps, startedAt, window } = context;
  const requestsBefore = deps.api.requestCount;
  const pending = await walkPending(context, plan.detection, snapshots);
  const resolution = await resolveVanished(context, snapshots, pending, state.lookups);
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
    room: Math.max(0, plan.planned - (deps.api.requestCount - requestsBefore)),
    stopped: stopsCycle(looked) || establishments.stopsCycle,
  });
  const walked = slice.outcome ? [...looked, slice.outcome] : looked;
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
    notesOfWalks(context, slice.outcome ? [slice.outcome] : []),
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
    spent: deps.api.requestCount - requestsBefore,
    baselineDeferred: slice.baselineDeferred,
    tokenRejected: rejected,
  });
  const failures = [...walkNotes.failures, ...amended.failures, ...closings.failures];
  const requestsOf = (purpose: 'detect' | 'resolve' | 'sweep') =>
    walked
      .filter((outcome) => outcome.walk.purpose === purpose)
      .reduce((sum, { requests }) => sum + requests, 0);
  const report: CycleReport = {
    outcome: 'polled',
    ok: failures.length === 0,
    // The establishments refresh is not tried once the walks found the API unreachable.
    ...(apiUnreachable(walked) ? { apiUnreachable: true as const } : {}),
    ...(rejected ? { tokenRejected: true as const } : {}),
    requestsFor: {
      detect: requestsOf('detect'),
      resolve: requestsOf('resolve'),
      sweep: requestsOf('sweep'),
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
