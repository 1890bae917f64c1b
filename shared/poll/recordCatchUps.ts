// The poll cycle's catch-ups (AWS): after a gap, the order events this cycle found that were already stale
// when found (their change happened more than a threshold before this cycle, by the API's own timestamps) are
// summed up in one catch-up per catch-up threshold of the config, recorded through the event log like any
// event. The publisher marks those events and the catch-up apart (`audience`), so that a person gets the
// catch-up and a webhook every event. Locally the outbox composes catch-ups per subscriber instead
// (outboxDelivery.ts), and this phase records none. The id is made of the events it stands for: the same
// stale events make the same catch-up, however often recorded.
import { buildCatchUp } from '../events/buildCatchUp.js';
import type { CatchUpEvent } from '../events/catchUpEvent.js';
import { isOrderEvent, type NotifierEvent } from '../events/notifierEvent.js';
import { isStaleAtDetection } from '../events/staleness.js';
import type { PollHealth } from '../store/pollState.js';
import type { CycleContext } from './cycleContext.js';
import { cycleFence } from './organizationLease.js';

export interface CatchUpsInput {
  /** The events this cycle recorded, in commit order. */
  events: readonly NotifierEvent[];
  /** When each one's change happened at the source, where the API told (recordChanges). */
  sourceTimes: Readonly<Record<string, number>>;
  /** The health before this cycle: when the organization was last polled successfully. */
  health: PollHealth;
}

/** The catch-ups newly recorded (not refused as duplicates). */
export async function recordCatchUps(context: CycleContext, input: CatchUpsInput): Promise<CatchUpEvent[]> {
  const { organization, deps, startedAt, source } = context;
  const catchUps: CatchUpEvent[] = [];
  for (const thresholdMs of deps.catchUpAfter ?? []) {
    const stale = input.events.filter(isOrderEvent).flatMap((event) => {
      const sourceTime = input.sourceTimes[event.id];
      return isStaleAtDetection(event, sourceTime, thresholdMs) ? [{ event, sourceTime }] : [];
    });
    if (stale.length === 0) continue;
    const { lastSuccessAt } = input.health;
    // The gap explains the staleness only when it is longer than the threshold itself.
    const unpolled =
      lastSuccessAt !== null && startedAt - lastSuccessAt > thresholdMs
        ? { fromMs: lastSuccessAt, toMs: startedAt }
        : undefined;
    catchUps.push(
      buildCatchUp({
        organization: {
          id: organization.id,
          name: organization.name,
          timeZone: organization.timeZone,
          highlightWords: organization.highlightWords,
        },
        source,
        catchUpAfterMs: thresholdMs,
        nowMs: startedAt,
        unpolled,
        events: stale,
      }),
    );
  }
  if (catchUps.length === 0) return [];
  const { duplicateEventIds } = await deps.store.recordEvents(
    organization.id,
    catchUps,
    cycleFence(deps.runId),
  );
  return catchUps.filter((catchUp) => !duplicateEventIds.includes(catchUp.id));
}
