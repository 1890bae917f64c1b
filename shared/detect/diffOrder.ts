// The diff engine (pure): compares what we remembered of an order with what we now observe, and returns
// the events that transition makes plus the snapshot to store, if anything changed.
import type { Order } from '../api/schemas.js';
import { eventId } from '../events/eventId.js';
import type { Change, FieldChange, OrderEvent, OrderEventType } from '../events/orderEvent.js';
import { fittedToCarrier, summarizeOrder } from '../events/orderSummary.js';
import { contentChanges } from './contentChanges.js';
import { contentOf, observedState, type Snapshot } from './snapshot.js';

export interface DiffContext {
  /** `timeZone`, the config's, rides along as the event's `organization.time_zone`. */
  organization: { id: string; name: string; timeZone?: string | undefined };
  /** CloudEvents `source`: `<base_url>/organizations/<org uuid>`. */
  source: string;
  /** When the change was detected (RFC 3339). */
  detectedAt: string;
  /** The listing this order came from is being seen for the first time: record, don't announce. */
  baseline: boolean;
  /** When the store may forget the snapshot to write, epoch ms. */
  expiresAt: number;
  /**
   * Whether the prep summary of this establishment and pickup date was already recorded: every event about
   * an order there is then `after_closing`. A lookup in what the runner knows, never I/O.
   */
  summarySent(establishmentUuid: string, pickupDate: string): boolean;
  /** An establishment's name, when known: names the one a moved order left. */
  establishmentName?: ((establishmentUuid: string) => string | undefined) | undefined;
}

export interface OrderDiff {
  events: OrderEvent[];
  /** The snapshot to write; undefined when nothing we track changed. */
  snapshot: Snapshot | undefined;
}

const STATUS_EVENT: Record<string, OrderEventType> = {
  completed: 'order.completed',
  canceled: 'order.canceled',
  archived: 'order.archived',
};

export function diffOrder(previous: Snapshot | undefined, order: Order, context: DiffContext): OrderDiff {
  const observed = observedState(order);
  const changes = trackedChanges(previous, order);
  // A snapshot written before content was remembered learns it now, silently.
  const content = previous?.content ? contentChanges(previous.content, observed.content) : [];
  const learnsContent = previous !== undefined && previous.content === undefined;
  if (
    previous &&
    changes.length === 0 &&
    content.length === 0 &&
    !learnsContent &&
    previous.missingSince === null
  )
    return { events: [], snapshot: undefined };
  const snapshot: Snapshot = {
    ...observed,
    missingSince: null,
    version: (previous?.version ?? 0) + 1,
    expiresAt: context.expiresAt,
  };
  if (!previous && context.baseline) return { events: [], snapshot };
  return { events: transitionEvents(previous, order, changes, content, context), snapshot };
}

function transitionEvents(
  previous: Snapshot | undefined,
  order: Order,
  changes: FieldChange[],
  content: Change[],
  context: DiffContext,
): OrderEvent[] {
  const status = order.status.value;
  const types: OrderEventType[] = [];
  if (!previous) types.push('order.created');
  const statusMoved = previous ? previous.status !== status : status !== 'pending';
  if (statusMoved) {
    // An order archived since we last looked still carries the proof of the step we missed.
    const before = previous?.status;
    if (status === 'archived' && order.completed_at && before !== 'completed') types.push('order.completed');
    if (status === 'archived' && order.canceled_at && before !== 'canceled') types.push('order.canceled');
    types.push(STATUS_EVENT[status] ?? 'order.status_changed');
  } else if (previous && moved(previous, order)) {
    // A move with a status change is told by the status event, whose changes say where it moved.
    types.push('order.rescheduled');
  } else if (content.length > 0) {
    // Only for an order that stayed where it was: a transition's event carries the new content already.
    types.push('order.updated');
  }
  const named = changes.map((change) => withNames(change, order, context));
  const afterClosing = isAfterClosing(previous, order, context);
  return types.map((type) =>
    buildEvent(type, order, type === 'order.updated' ? content : named, afterClosing, context),
  );
}

function moved(previous: Snapshot, order: Order): boolean {
  return (
    previous.pickupDate !== order.pickup_at || !sameUuid(previous.establishmentUuid, order.establishment.uuid)
  );
}

/** uuids in another letter case are the same establishment, as a pickup date in another format is the same day. */
function sameUuid(a: string | null, b: string | null): boolean {
  return a?.toLowerCase() === b?.toLowerCase();
}

/**
 * Late news for a kitchen: the order is in a day whose prep summary was already sent, or it left one (that
 * kitchen counted it, and must hear it is gone).
 */
function isAfterClosing(previous: Snapshot | undefined, order: Order, context: DiffContext): boolean {
  if (context.summarySent(order.establishment.uuid, order.pickup_at)) return true;
  return previous !== undefined && moved(previous, order)
    ? context.summarySent(previous.establishmentUuid, previous.pickupDate)
    : false;
}

/** An establishment change with the names we know, for readers who do not think in uuids. */
function withNames(change: FieldChange, order: Order, context: DiffContext): FieldChange {
  // A first sighting's establishment is named in the order itself; only a move has two to tell apart.
  if (change.field !== 'establishment' || change.from === null) return change;
  const nameOf = (uuid: string | null): string | undefined => {
    if (uuid === null) return undefined;
    if (sameUuid(uuid, order.establishment.uuid)) return order.establishment.name;
    return context.establishmentName?.(uuid);
  };
  const fromName = nameOf(change.from);
  const toName = nameOf(change.to);
  return {
    ...change,
    ...(fromName === undefined ? {} : { from_name: fromName }),
    ...(toName === undefined ? {} : { to_name: toName }),
  };
}

function buildEvent(
  type: OrderEventType,
  order: Order,
  changes: Change[],
  afterClosing: boolean,
  context: DiffContext,
): OrderEvent {
  return fittedToCarrier({
    specversion: '1.0',
    id: eventId(context.organization.id, order.uuid, type, stateKey(type, order)),
    source: context.source,
    type,
    subject: order.uuid,
    time: context.detectedAt,
    datacontenttype: 'application/json',
    data: {
      // Copied field by field: the public contract carries the id, the name and the zone its people read
      // times in, never other config.
      organization: {
        id: context.organization.id,
        name: context.organization.name,
        ...(context.organization.timeZone === undefined ? {} : { time_zone: context.organization.timeZone }),
      },
      order: summarizeOrder(order),
      changes,
      // Absent rather than false: an event in time reads as it did before the flag existed.
      ...(afterClosing ? { after_closing: true as const } : {}),
    },
  });
}

/** The part of the new state that makes this transition unique, so a repeat sighting gets the same id. */
function stateKey(type: OrderEventType, order: Order): string {
  if (type === 'order.created') return 'created';
  // The transition's own timestamp when the API gives one, so an inferred step and a seen one agree;
  // otherwise `updated_at`, so that leaving and re-entering a status is two transitions, not one.
  if (type === 'order.completed') return `completed@${order.completed_at ?? order.updated_at}`;
  if (type === 'order.canceled') return `canceled@${order.canceled_at ?? order.updated_at}`;
  // Where it moved to and when: moving back and forth is as many events as moves.
  if (type === 'order.rescheduled')
    return `rescheduled@${order.establishment.uuid.toLowerCase()}/${order.pickup_at}@${order.updated_at}`;
  // The new content itself, and when: a second sighting is the same event; changing back is a new one.
  if (type === 'order.updated') return `updated@${order.updated_at}@${JSON.stringify(contentOf(order))}`;
  return `${order.status.value}@${order.updated_at}`;
}

function trackedChanges(previous: Snapshot | undefined, order: Order): FieldChange[] {
  const pairs: Array<[FieldChange['field'], string | null, string | null]> = [
    ['status', previous?.status ?? null, order.status.value],
    ['canceled_at', previous?.canceledAt ?? null, order.canceled_at],
    ['completed_at', previous?.completedAt ?? null, order.completed_at],
    ['pickup_date', previous?.pickupDate ?? null, order.pickup_at],
    ['establishment', previous?.establishmentUuid ?? null, order.establishment.uuid],
  ];
  return pairs
    .filter(([field, from, to]) => (field === 'establishment' ? !sameUuid(from, to) : from !== to))
    .map(([field, from, to]) => ({ field, from, to }));
}
