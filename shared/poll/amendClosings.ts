// The poll cycle's amendment of the closings: this cycle's after-closing order changes, gathered into one
// `establishment.prep_changed` per establishment and pickup date whose summary was sent (planned in
// detect/planPrepChanges.ts), recorded through the event log and its outbox; then what each kitchen heard
// is remembered beside its summary, for the next one's "from".
//
// It runs after the changes are recorded (it reads the events that phase committed, and the snapshots as they
// stood before them) and before the closings are summarized: it amends the summaries recorded by earlier
// cycles only, the ones this cycle's events were after closing for; a summary recorded this cycle counted
// this cycle's orders already.
//
// What it cannot do: a cycle that crashes after committing its order events and before recording the
// prep_changed leaves those changes to the order events alone (the next cycle sees no change in those
// orders). One that crashes after recording it and before saving keeps the old "from" for the next one.
import type { Order } from '../api/schemas.js';
import {
  type ChangedOrder,
  type DueAmendment,
  heardAfter,
  type KitchenView,
  planPrepChanges,
} from '../detect/planPrepChanges.js';
import type { PrepSummaries } from '../detect/planPrepSummaries.js';
import { contentOf, type Snapshot } from '../detect/snapshot.js';
import { buildPrepChanged } from '../events/buildPrepChanged.js';
import { PrepChangedInputError } from '../events/errors.js';
import type { OrderEvent } from '../events/orderEvent.js';
import type { PrepChangedEvent } from '../events/prepChangedEvent.js';
import type { EstablishmentsCache } from '../store/pollState.js';
import { zonedIsoTime } from '../time/zonedTime.js';
import type { CycleContext } from './cycleContext.js';
import { recordBuiltEvents } from './recordBuiltEvents.js';

export interface AmendInput {
  /** The summaries as earlier cycles left them. */
  prepSummaries: PrepSummaries;
  /** The after-closing order events this cycle committed, announced or not (recordChanges). */
  events: readonly OrderEvent[];
  /** The snapshots as this cycle found them, before its commits: each order as the kitchen last knew it. */
  snapshots: ReadonlyMap<string, Snapshot>;
  observed: ReadonlyMap<string, Order>;
  establishments: EstablishmentsCache;
}

export interface AmendedClosings {
  /** prep_changed events newly recorded (not refused as duplicates). */
  events: PrepChangedEvent[];
  /** Amendments that could not be built, one line each. */
  failures: string[];
  /** The record for the next cycle: what each kitchen heard, after these. */
  prepSummaries: PrepSummaries;
}

export async function amendClosings(context: CycleContext, input: AmendInput): Promise<AmendedClosings> {
  const none: AmendedClosings = { events: [], failures: [], prepSummaries: input.prepSummaries };
  const orders = changedOrders(input);
  if (orders.length === 0) return none;
  const due = planPrepChanges({ summaries: input.prepSummaries, orders });
  const { built, events, failures } = await recordBuiltEvents(
    context,
    due,
    PrepChangedInputError,
    (amendment) => buildAmendment(context, amendment, input),
  );
  const prepSummaries = { ...input.prepSummaries };
  for (const { due: amendment, event } of built) {
    // What the event says is what the kitchen heard, a duplicate's included: the log holds it already.
    const items = heardAfter(amendment.summary.items, event.data.items);
    const { items: _heard, ...summary } = amendment.summary;
    prepSummaries[amendment.key] = items === undefined ? summary : { ...summary, items };
  }
  return { events, failures, prepSummaries };
}

/** Each order with after-closing events this cycle, as the last cycle left it and as this one saw it. */
function changedOrders(input: AmendInput): ChangedOrder[] {
  const byOrder = new Map<string, OrderEvent[]>();
  for (const event of input.events) {
    if (event.data.after_closing !== true) continue;
    const uuid = event.data.order.uuid;
    byOrder.set(uuid, [...(byOrder.get(uuid) ?? []), event]);
  }
  // Every order with events was seen this cycle (recordChanges diffs what it saw); the guard is for types.
  return [...byOrder.entries()].flatMap(([uuid, events]) => {
    const seen = input.observed.get(uuid);
    if (seen === undefined) return [];
    const snapshot = input.snapshots.get(uuid);
    const before: KitchenView | undefined = snapshot && {
      ...viewOf(snapshot.establishmentUuid, snapshot.pickupDate, snapshot.status, snapshot.canceledAt),
      content: snapshot.content,
    };
    const after = {
      ...viewOf(seen.establishment.uuid, seen.pickup_at, seen.status.value, seen.canceled_at),
      content: contentOf(seen),
    };
    return [{ uuid, reference: seen.reference, eventIds: events.map((event) => event.id), before, after }];
  });
}

function viewOf(establishmentUuid: string, pickupDate: string, status: string, canceledAt: string | null) {
  // Canceled, or archived after a cancellation: nothing to cook. Completed (picked up) was cooked.
  return { establishmentUuid, pickupDate, counted: status !== 'canceled' && canceledAt === null };
}

function buildAmendment(context: CycleContext, amendment: DueAmendment, input: AmendInput): PrepChangedEvent {
  const { organization, startedAt } = context;
  const { establishmentUuid, pickupDate, summary } = amendment;
  const known = input.establishments?.records.find(
    (record) => record.uuid.toLowerCase() === establishmentUuid.toLowerCase(),
  );
  // Named as the summary named it (the establishments cache); else as an order there names it.
  const named = [...input.observed.values()].find(
    (order) => order.establishment.uuid.toLowerCase() === establishmentUuid.toLowerCase(),
  )?.establishment;
  return buildPrepChanged({
    organization: { id: organization.id, name: organization.name },
    establishment: {
      uuid: known?.uuid ?? establishmentUuid,
      name: known?.name ?? named?.name ?? establishmentUuid,
    },
    pickupDate,
    summaryId: summary.eventId,
    summaryClosedAt: zonedIsoTime(summary.closedAt, organization.timeZone),
    source: context.source,
    time: new Date(startedAt).toISOString(),
    items: amendment.items,
    orders: amendment.orders,
    gathered: amendment.eventIds,
  });
}
