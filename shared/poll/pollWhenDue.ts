// The poll cycle as a trigger sees it on AWS: the watchdog's restarting ticks (shared/poll/watchChains.ts)
// and the self-scheduled ticks both ask here, and only a trigger that finds the organization's pace due runs a cycle.
// A tick that comes early, or twice, costs one state read and no API request, so the chain of ticks can
// never multiply.
import type { StateStore } from '../store/stateStore.js';
import type { PollDependencies, PolledOrganization } from './cycleContext.js';
import { pollOrganization } from './pollOrganization.js';
import type { PollReport } from './pollReport.js';

/** A trigger this close before the due time runs the cycle: delays are whole seconds. */
export const EARLY_TOLERANCE_MS = 1_000;

export type DuePoll = { outcome: 'not_due'; nextPollAt: number } | { outcome: 'polled'; report: PollReport };

export async function pollWhenDue(
  organization: PolledOrganization,
  deps: PollDependencies & { store: StateStore },
): Promise<DuePoll> {
  const state = await deps.store.loadPollState(organization.id);
  const nextPollAt = state?.pace.nextPollAt ?? null;
  if (nextPollAt !== null && deps.clock() < nextPollAt - EARLY_TOLERANCE_MS) {
    return { outcome: 'not_due', nextPollAt };
  }
  return { outcome: 'polled', report: await pollOrganization(organization, deps) };
}

/** Whole seconds until `dueAt`, as an SQS delay (0 to 900). */
export function tickDelaySeconds(dueAt: number, nowMs: number): number {
  return Math.min(900, Math.max(0, Math.ceil((dueAt - nowMs) / 1000)));
}
