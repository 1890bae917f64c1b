// The poll cycle as a trigger sees it on AWS: the watchdog schedule (infra/pollSchedules.ts) and the
// self-scheduled ticks both ask here, and only a trigger that finds the organization's pace due runs a cycle.
// A tick that comes early, or twice, costs one state read and no API request, so the chain of ticks can
// never multiply.
import type { OverdueInput } from '../detect/overdue.js';
import type { PollState } from '../store/pollState.js';
import type { StateStore } from '../store/stateStore.js';
import type { PollDependencies, PolledOrganization } from './cycleContext.js';
import { pollOrganization } from './pollOrganization.js';
import type { PollReport } from './pollReport.js';

/** A trigger this close before the due time runs the cycle: delays are whole seconds. */
export const EARLY_TOLERANCE_MS = 1_000;

export type DuePoll =
  /**
   * `overdue`: what the overdue rule reads, and `tokenRejected`: whether the organization's token stands
   * rejected, both from the state this trigger read anyway.
   */
  | { outcome: 'not_due'; nextPollAt: number; overdue: OverdueInput; tokenRejected: boolean }
  | { outcome: 'polled'; report: PollReport };

/** What the overdue rule (shared/detect/overdue.ts) reads of an organization's poll state, if any. */
export function overdueInputOf(
  organization: Pick<PolledOrganization, 'pollIntervalSeconds'>,
  state: PollState | undefined,
): OverdueInput {
  return {
    pollIntervalSeconds: organization.pollIntervalSeconds,
    lastSuccessAt: state?.health.lastSuccessAt ?? null,
    lastAttemptAt: state?.health.lastAttemptAt ?? null,
    nextPollAt: state?.pace.nextPollAt ?? null,
    tokenRejected: (state?.health.tokenRejectedAt ?? null) !== null,
  };
}

export async function pollWhenDue(
  organization: PolledOrganization,
  deps: PollDependencies & { store: StateStore },
): Promise<DuePoll> {
  const state = await deps.store.loadPollState(organization.id);
  const nextPollAt = state?.pace.nextPollAt ?? null;
  if (nextPollAt !== null && deps.clock() < nextPollAt - EARLY_TOLERANCE_MS) {
    return {
      outcome: 'not_due',
      nextPollAt,
      overdue: overdueInputOf(organization, state),
      tokenRejected: (state?.health.tokenRejectedAt ?? null) !== null,
    };
  }
  return { outcome: 'polled', report: await pollOrganization(organization, deps) };
}

/** Whole seconds until `dueAt`, as an SQS delay (0 to 900). */
export function tickDelaySeconds(dueAt: number, nowMs: number): number {
  return Math.min(900, Math.max(0, Math.ceil((dueAt - nowMs) / 1000)));
}
