// The poll cycle's summaries of the closings: the prep summary of every closing the planner finds due,
// recorded through the event log and its outbox, then remembered. A crash in between records the same ids
// again next cycle, which the log refuses as duplicates: one summary per establishment and date, whatever
// happens.
import type { Order } from '../api/schemas.js';
import type { Coverage } from '../detect/coverage.js';
import { heardOf } from '../detect/planPrepChanges.js';
import {
  canceledBeforeClosing,
  type DueSummary,
  forgetSummariesBefore,
  type OrderSighting,
  type PrepSummaries,
  planPrepSummaries,
  prepSummaryKey,
} from '../detect/planPrepSummaries.js';
import type { Snapshot } from '../detect/snapshot.js';
import { buildPrepSummary } from '../events/buildPrepSummary.js';
import { PrepSummaryInputError } from '../events/errors.js';
import type { PrepSummaryEvent } from '../events/prepSummaryEvent.js';
import type { EstablishmentsCache } from '../store/pollState.js';
import { addDays } from '../time/calendarDate.js';
import { zonedIsoTime } from '../time/zonedTime.js';
import type { CycleContext } from './cycleContext.js';
import { recordBuiltEvents } from './recordBuiltEvents.js';

export interface ClosingsInput {
  prepSummaries: PrepSummaries;
  establishments: EstablishmentsCache;
  /** Coverage with this cycle's walks: only those count the figures. */
  coverage: Coverage;
  /** Why this cycle walked no pending listing whole, when it did not. */
  shortfall: string | undefined;
  observed: ReadonlyMap<string, Order>;
  snapshots: ReadonlyMap<string, Snapshot>;
}

export interface SummarizedClosings {
  /** Summaries newly recorded (not refused as duplicates). */
  events: PrepSummaryEvent[];
  /** Summaries that could not be built, one line each. */
  failures: string[];
  /** The record for the next cycle. */
  prepSummaries: PrepSummaries;
}

export async function summarizeClosings(
  context: CycleContext,
  input: ClosingsInput,
): Promise<SummarizedClosings> {
  const { organization, startedAt, window, today } = context;
  const prepSummaries = forgetSummariesBefore(input.prepSummaries, window.startDate);
  const none: SummarizedClosings = { events: [], failures: [], prepSummaries };
  if (input.establishments === null) return none;
  const yesterday = addDays(today, -1);
  const due = planPrepSummaries({
    establishments: input.establishments.records,
    watched: organization.establishments,
    timeZone: organization.timeZone,
    now: startedAt,
    dates: (yesterday < window.startDate ? [] : [yesterday]).concat(today),
    recorded: new Set(Object.keys(prepSummaries)),
    // Only this cycle's walks: its observations are the figures.
    pendingCoveredAt: Object.fromEntries(
      Object.entries(input.coverage.pendingCoveredAt).filter(([, at]) => at === startedAt),
    ),
    shortfall: input.shortfall,
    watchingSince: input.coverage.watchingSince,
  });
  if (due.length === 0) return none;
  const sightings = sightingsOf(input.snapshots, input.observed);
  const { built, events, failures } = await recordBuiltEvents(
    context,
    due,
    PrepSummaryInputError,
    (summary) => buildSummary(context, summary, input.observed, sightings),
  );
  const recorded = { ...prepSummaries };
  for (const { due: summary, event } of built) {
    const { establishment, pickupDate, closesAt } = summary.closing;
    // What the kitchen heard, the "from" of its prep_changed events (amendClosings); none when too large.
    const items = heardOf(event.data.items);
    recorded[prepSummaryKey(establishment.uuid, pickupDate)] = {
      eventId: event.id,
      closedAt: closesAt,
      complete: event.data.complete,
      ...(items === undefined ? {} : { items }),
    };
  }
  return { events, failures, prepSummaries: recorded };
}

function buildSummary(
  context: CycleContext,
  summary: DueSummary,
  observed: ReadonlyMap<string, Order>,
  sightings: readonly OrderSighting[],
): PrepSummaryEvent {
  const { organization, startedAt } = context;
  const { establishment, pickupDate, closesAt } = summary.closing;
  const orders = [...observed.values()].filter(
    (order) =>
      order.status.value === 'pending' &&
      order.pickup_at === pickupDate &&
      order.establishment.uuid.toLowerCase() === establishment.uuid.toLowerCase(),
  );
  return buildPrepSummary({
    organization: { id: organization.id, name: organization.name },
    establishment,
    pickupDate,
    closedAt: zonedIsoTime(closesAt, organization.timeZone),
    source: context.source,
    time: new Date(startedAt).toISOString(),
    orders,
    canceledBeforeClosing: canceledBeforeClosing(sightings, summary.closing),
    highlightWords: organization.highlightWords,
    incompleteReason:
      summary.incompleteReason === undefined
        ? undefined
        : `${summary.incompleteReason}; counted from the pending orders this cycle saw`,
  });
}

/** Every order as last known: this cycle's sightings over the snapshots. */
function sightingsOf(
  snapshots: ReadonlyMap<string, Snapshot>,
  observed: ReadonlyMap<string, Order>,
): OrderSighting[] {
  const byUuid = new Map<string, OrderSighting>();
  for (const snapshot of snapshots.values()) byUuid.set(snapshot.orderUuid, snapshot);
  for (const order of observed.values()) {
    byUuid.set(order.uuid, {
      establishmentUuid: order.establishment.uuid,
      pickupDate: order.pickup_at,
      canceledAt: order.canceled_at,
    });
  }
  return [...byUuid.values()];
}
