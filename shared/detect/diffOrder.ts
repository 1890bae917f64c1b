// The diff engine (pure): compares what we remembered of an order with what we now observe, and returns
// the events that transition makes plus the snapshot to store, if anything changed.
import type { Order } from '../api/schemas.js';
import { eventId } from '../events/eventId.js';
import type { Change, EventType, OrderEvent } from '../events/orderEvent.js';
import { summarizeOrder } from '../events/orderSummary.js';
import { observedState, type Snapshot } from './snapshot.js';

export interface DiffContext {
  organization: { id: string; name: string };
  /** CloudEvents `source`: `<base_url>/organizations/<org uuid>`. */
  source: string;
  /** When the change was detected (RFC 3339). */
  detectedAt: string;
  /** The listing this order came from is being seen for the first time: record, don't announce. */
  baseline: boolean;
  /** TTL of the snapshot to write, epoch seconds. */
  expiresAt: number;
}

export interface OrderDiff {
  events: OrderEvent[];
  /** The snapshot to write; undefined when nothing we track changed. */
  snapshot: Snapshot | undefined;
}

const STATUS_EVENT: Record<string, EventType> = {
  completed: 'order.completed',
  canceled: 'order.canceled',
  archived: 'order.archived',
};

export function diffOrder(previous: Snapshot | undefined, order: Order, context: DiffContext): OrderDiff {
  const observed = observedState(order);
  const changes = trackedChanges(previous, order);
  if (previous && changes.length === 0 && previous.missingSince === null)
    return { events: [], snapshot: undefined };
  const snapshot: Snapshot = {
    ...observed,
    missingSince: null,
    version: (previous?.version ?? 0) + 1,
    expiresAt: context.expiresAt,
  };
  if (!previous && context.baseline) return { events: [], snapshot };
  return { events: transitionEvents(previous, order, changes, context), snapshot };
}

function transitionEvents(
  previous: Snapshot | undefined,
  order: Order,
  changes: Change[],
  context: DiffContext,
): OrderEvent[] {
  const status = order.status.value;
  const types: EventType[] = [];
  if (!previous) types.push('order.created');
  const statusMoved = previous ? previous.status !== status : status !== 'pending';
  if (statusMoved) {
    // An order archived since we last looked still carries the proof of the step we missed.
    const before = previous?.status;
    if (status === 'archived' && order.completed_at && before !== 'completed') types.push('order.completed');
    if (status === 'archived' && order.canceled_at && before !== 'canceled') types.push('order.canceled');
    types.push(STATUS_EVENT[status] ?? 'order.status_changed');
  }
  return types.map((type) => buildEvent(type, order, changes, context));
}

function buildEvent(type: EventType, order: Order, changes: Change[], context: DiffContext): OrderEvent {
  return {
    specversion: '1.0',
    id: eventId(context.organization.id, order.uuid, type, stateKey(type, order)),
    source: context.source,
    type,
    subject: order.uuid,
    time: context.detectedAt,
    datacontenttype: 'application/json',
    data: {
      // Copied field by field: the public contract carries the id and name only, never other config.
      organization: { id: context.organization.id, name: context.organization.name },
      order: summarizeOrder(order),
      changes,
    },
  };
}

/** The part of the new state that makes this transition unique, so a repeat sighting gets the same id. */
function stateKey(type: EventType, order: Order): string {
  if (type === 'order.created') return 'created';
  // The transition's own timestamp when the API gives one, so an inferred step and a seen one agree;
  // otherwise `updated_at`, so that leaving and re-entering a status is two transitions, not one.
  if (type === 'order.completed') return `completed@${order.completed_at ?? order.updated_at}`;
  if (type === 'order.canceled') return `canceled@${order.canceled_at ?? order.updated_at}`;
  return `${order.status.value}@${order.updated_at}`;
}

function trackedChanges(previous: Snapshot | undefined, order: Order): Change[] {
  const pairs: Array<[Change['field'], string | null, string | null]> = [
    ['status', previous?.status ?? null, order.status.value],
    ['canceled_at', previous?.canceledAt ?? null, order.canceled_at],
    ['completed_at', previous?.completedAt ?? null, order.completed_at],
    ['pickup_date', previous?.pickupDate ?? null, order.pickup_at],
    ['establishment', previous?.establishmentUuid ?? null, order.establishment.uuid],
  ];
  return pairs.filter(([, from, to]) => from !== to).map(([field, from, to]) => ({ field, from, to }));
}
