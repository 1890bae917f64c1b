// The poll cycle's record of the changes: every order seen is diffed against its snapshot and each change
// committed with its events, one order at a time (a commit is the unit another run can conflict with).
// Whether a new order is news is judged against the coverage as it stood before this cycle, which is about to
// widen.
import type { Order } from '../api/schemas.js';
import { isNews } from '../detect/absence.js';
import { announcedEvents } from '../detect/announcedEvents.js';
import type { Coverage } from '../detect/coverage.js';
import { diffOrder } from '../detect/diffOrder.js';
import { type PrepSummaries, prepSummaryKey } from '../detect/planPrepSummaries.js';
import type { VanishedOrder } from '../detect/planResolution.js';
import type { Snapshot } from '../detect/snapshot.js';
import { transitionTime } from '../detect/transitionTime.js';
import type { NotifierEvent } from '../events/notifierEvent.js';
import type { OrderEvent } from '../events/orderEvent.js';
import type { EstablishmentsCache } from '../store/pollState.js';
import { addDays } from '../time/calendarDate.js';
import type { CycleContext } from './cycleContext.js';
import { cycleFence } from './organizationLease.js';

export interface ChangesInput {
  snapshots: ReadonlyMap<string, Snapshot>;
  /** The orders seen, as last seen, in the order to commit them. */
  observed: ReadonlyMap<string, Order>;
  /** Orders found in no status: marked missing, without an event. */
  missing: readonly VanishedOrder[];
  /** Coverage before this cycle. */
  coverage: Coverage;
  /** Summaries recorded by earlier cycles: an order event after one of them is after closing. */
  prepSummaries: PrepSummaries;
  establishments: EstablishmentsCache;
}

export interface RecordedChanges {
  /** Events newly recorded, in commit order. */
  events: NotifierEvent[];
  /** When each new event's change happened at the source (epoch ms), by event id. */
  sourceTimes: Record<string, number>;
  /** Orders another run changed first; looked at again next cycle. */
  conflicts: number;
  /**
   * The committed changes' after-closing events, announced or not (`statuses` chooses which order events
   * people hear of, not what a kitchen must cook), less those the log already held: amendClosings' input.
   */
  afterClosing: OrderEvent[];
}

export async function recordChanges(context: CycleContext, input: ChangesInput): Promise<RecordedChanges> {
  const { organization, deps, startedAt } = context;
  const recorded: RecordedChanges = { events: [], sourceTimes: {}, conflicts: 0, afterClosing: [] };
  const detectedAt = new Date(startedAt).toISOString();
  const diffContext = {
    organization: { id: organization.id, name: organization.name, timeZone: organization.timeZone },
    source: context.source,
    detectedAt,
    summarySent: (establishmentUuid: string, pickupDate: string) =>
      input.prepSummaries[prepSummaryKey(establishmentUuid, pickupDate)] !== undefined,
    establishmentName: (establishmentUuid: string) =>
      input.establishments?.records.find(
        (record) => record.uuid.toLowerCase() === establishmentUuid.toLowerCase(),
      )?.name,
  };
  const commit = async (
    snapshot: Snapshot,
    events: OrderEvent[],
    order?: Order,
    /** Every event of the change, announced or not. */
    made: readonly OrderEvent[] = events,
  ) => {
    // `order`, when given, dates each event's change at the source; the log keeps it beside the event.
    const sourceTimes: Record<string, number> = {};
    for (const event of order ? events : []) {
      const at = transitionTime(event, order);
      if (at !== undefined) sourceTimes[event.id] = at;
    }
    const result = await deps.store.commitChange(
      organization.id,
      { snapshot, events, sourceTimes },
      cycleFence(deps.runId),
    );
    if (result.outcome === 'version_conflict') {
      recorded.conflicts += 1;
      return;
    }
    const duplicates = new Set(result.duplicateEventIds);
    const fresh = events.filter((event) => !duplicates.has(event.id));
    recorded.events.push(...fresh);
    recorded.afterClosing.push(
      ...made.filter((event) => event.data.after_closing === true && !duplicates.has(event.id)),
    );
    for (const event of fresh) {
      const at = sourceTimes[event.id];
      if (at !== undefined) recorded.sourceTimes[event.id] = at;
    }
  };
  const listedApart = organization.establishments !== undefined;
  const graceDays = organization.window.daysBack + (deps.snapshotGraceDays ?? 2);
  for (const order of input.observed.values()) {
    const news = isNews(order, listedApart, input.coverage);
    // Existed before we could see it: announced, if at all, only because of emitExisting, and its age is
    // no delay in detecting it.
    const preexisting = !news && !input.snapshots.has(order.uuid);
    const diff = diffOrder(input.snapshots.get(order.uuid), order, {
      ...diffContext,
      baseline: !(organization.emitExisting || news),
      expiresAt: expiryOf(order.pickup_at, graceDays),
    });
    if (diff.snapshot) {
      await commit(
        diff.snapshot,
        announcedEvents(diff.events, organization.statuses),
        preexisting ? undefined : order,
        diff.events,
      );
    }
  }
  for (const order of input.missing) {
    const previous = input.snapshots.get(order.uuid);
    if (!previous) continue;
    await commit({ ...previous, missingSince: detectedAt, version: previous.version + 1 }, []);
  }
  return recorded;
}

function expiryOf(pickupDate: string, graceDays: number): number {
  return Date.parse(`${addDays(pickupDate, graceDays + 1)}T00:00:00Z`);
}
