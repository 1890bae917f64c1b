// Valid OrderEvents for delivery tests, made by the real diff engine so they match what the poller emits
// (ids, changes, summary), while tests only spell out what they vary.
import type { OrderInput } from '../../shared/api/schemas.js';
import { diffOrder } from '../../shared/detect/diffOrder.js';
import type { OrderEventType as EventType, OrderEvent } from '../../shared/events/orderEvent.js';
import { diffContext, laterOrder, parsedOrder, snapshotOf, statusOf } from './detectFixtures.js';

export interface EventOptions {
  /** @default 'order.created' */
  type?: EventType;
  /** Fields of the order as the API lists it after the transition. */
  order?: Partial<OrderInput>;
  /** CloudEvents `time` (when the change was detected). */
  detectedAt?: string;
}

const TRANSITION_TIME = '2026-03-05T09:30:00.000000Z';

/** What the order looks like after each transition; the previous sighting is always a pending order. */
const AFTER: Record<Exclude<EventType, 'order.created'>, Partial<OrderInput>> = {
  'order.completed': { status: statusOf('completed'), completed_at: TRANSITION_TIME },
  'order.canceled': { status: statusOf('canceled'), canceled_at: TRANSITION_TIME, can_be_cancelled: false },
  'order.archived': { status: statusOf('archived'), updated_at: TRANSITION_TIME },
  'order.status_changed': { status: statusOf('preparing'), updated_at: TRANSITION_TIME },
  'order.rescheduled': { pickup_at: '2026-03-09', updated_at: TRANSITION_TIME },
};

/** One event of `type` for a fresh order (parent e-mail and phone included, as the diff engine keeps them). */
export function makeOrderEvent(options: EventOptions = {}): OrderEvent {
  const type = options.type ?? 'order.created';
  const context = diffContext(options.detectedAt ? { detectedAt: options.detectedAt } : {});
  const events =
    type === 'order.created'
      ? diffOrder(undefined, parsedOrder(options.order), context).events
      : transition(type, options.order ?? {}, context);
  const event = events.find((candidate) => candidate.type === type);
  if (!event) throw new Error(`the diff engine made no ${type} event from these options`);
  return event;
}

function transition(
  type: Exclude<EventType, 'order.created'>,
  order: Partial<OrderInput>,
  context: ReturnType<typeof diffContext>,
): OrderEvent[] {
  const before = parsedOrder({
    ...order,
    status: statusOf('pending'),
    canceled_at: null,
    completed_at: null,
  });
  const after = laterOrder(before, { ...AFTER[type], ...order });
  return diffOrder(snapshotOf(before), after, context).events;
}
