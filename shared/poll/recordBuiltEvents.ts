// How a phase records the events it builds from a plan (prep summaries, their amendments): each built on
// its own, so that one its builder refuses is a failure line rather than the end of the others; then all
// logged in one call, which refuses an id the log holds already (a cycle redone after a crash). Only the
// builder's own refusal is a failure line: anything else thrown is a bug, and fails the cycle as one.
import type { NotifierEvent } from '../events/notifierEvent.js';
import type { CycleContext } from './cycleContext.js';
import { UnexpectedCycleError } from './errors.js';
import { cycleFence } from './organizationLease.js';

export interface RecordedBuilds<Due, Event> {
  /** Every event built, with what it was built for, a duplicate's included (the log holds it already). */
  built: Array<{ due: Due; event: Event }>;
  /** The events newly recorded, in the plan's order. */
  events: Event[];
  /** What could not be built, one line each, naming the organization. */
  failures: string[];
}

/** The error class a builder refuses its inputs with (its `@throws`), e.g. PrepSummaryInputError. */
export type BuildRefusal = abstract new (...args: never[]) => Error;

export async function recordBuiltEvents<Due, Event extends NotifierEvent>(
  context: CycleContext,
  plan: readonly Due[],
  refusal: BuildRefusal,
  build: (due: Due) => Event,
): Promise<RecordedBuilds<Due, Event>> {
  const { organization, deps } = context;
  const built: Array<{ due: Due; event: Event }> = [];
  const failures: string[] = [];
  for (const due of plan) {
    try {
      built.push({ due, event: build(due) });
    } catch (error) {
      if (!(error instanceof refusal)) {
        throw new UnexpectedCycleError(organization.name, 'building an event', error);
      }
      failures.push(`${organization.name}: ${error.message}`);
    }
  }
  if (built.length === 0) return { built, events: [], failures };
  const { duplicateEventIds } = await deps.store.recordEvents(
    organization.id,
    built.map(({ event }) => event),
    cycleFence(deps.runId),
  );
  const duplicates = new Set(duplicateEventIds);
  return { built, events: built.map(({ event }) => event).filter(({ id }) => !duplicates.has(id)), failures };
}
