// The poll cycle's save: the poll state the phases' records make, with how the cycle went, written in one
// save that also gives back a lease held for the cycle; fenced by that lease, as every write of the cycle.
import type { PollHealth, PollState } from '../store/pollState.js';
import type { CycleContext } from './cycleContext.js';
import { cycleFence, DEFAULT_LEASE_TERMS } from './organizationLease.js';
import type { PollReport } from './pollReport.js';

/**
 * How the cycle went, for status and alarms. A deferral is neither: the "not polled" alarm still sees the
 * gap. A rejected token is marked from the first cycle the API rejected it in until a cycle gets past it.
 */
export function healthAfter(
  health: PollHealth,
  cycle: Pick<PollReport, 'outcome' | 'failures' | 'tokenRejected'>,
  at: number,
): PollHealth {
  if (cycle.outcome === 'deferred') return { ...health, lastAttemptAt: at };
  if (cycle.failures.length === 0) {
    return {
      lastSuccessAt: at,
      lastAttemptAt: at,
      consecutiveFailures: 0,
      lastError: null,
      tokenRejectedAt: null,
    };
  }
  return {
    ...health,
    lastAttemptAt: at,
    consecutiveFailures: health.consecutiveFailures + 1,
    lastError: cycle.failures[0] ?? 'failed',
    tokenRejectedAt: cycle.tokenRejected ? (health.tokenRejectedAt ?? at) : null,
  };
}

export async function saveCycle(context: CycleContext, state: PollState): Promise<void> {
  const { deps } = context;
  const heldFor = (deps.lease ?? DEFAULT_LEASE_TERMS).heldFor;
  await deps.store.savePollState(state, {
    ...cycleFence(deps.runId),
    ...(heldFor === 'cycle' ? { releaseLease: true } : {}),
  });
}
