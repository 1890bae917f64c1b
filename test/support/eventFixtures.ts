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
  /** Fields of the order as it was before the transition (over `order`), e.g. where it moved from. */
  before?: Partial<OrderInput>;
  /** CloudEvents `time` (when the change was detected). */
  detectedAt?: string;
  /** The diff context's summary-sent predicate: the event is `after_closing` when it answers yes. */
  summarySent?: (establishmentUuid: string, pickupDate: string) => boolean;
}

const TRANSITION_TIME = '2026-03-05T09:30:00.000000Z';

/** What the order looks like after each transition; the previous sighting is always a pending order. */
const AFTER: Record<Exclude<EventType, 'order.created'>, Partial<OrderInput>> = {
  'order.completed': { status: statusOf('completed'), completed_at: TRANSITION_TIME },
  'order.canceled': { status: statusOf('canceled'), canceled_at: TRANSITION_TIME, can_be_cancelled: false },
  'order.archived': { status: statusOf('archived'), updated_at: TRANSITION_TIME },
  'order.status_changed': { status: statusOf('preparing'), updated_at: TRANSITION_TIME },
  'order.rescheduled': { updated_at: TRANSITION_TIME },
  'order.updated': { notes: 'Allergic to eggs.', updated_at: TRANSITION_TIME },
};

/** One event of `type` for a fresh order (parent e-mail and phone included, as the diff engine keeps them). */
export function makeOrderEvent(options: EventOptions = {}): OrderEvent {
  const type = options.type ?? 'order.created';
  const context = diffContext({
    ...(options.detectedAt ? { detectedAt: options.detectedAt } : {}),
    ...(options.summarySent ? { summarySent: options.summarySent } : {}),
  });
  const events =
    type === 'order.created'
      ? diffOrder(undefined, parsedOrder(options.order), context).events
      : transition(type, options.order ?? {}, options.before ?? defaultBefore(type), context);
  const event = events.find((candidate) => candidate.type === type);
  if (!event) throw new Error(`the diff engine made no ${type} event from these options`);
  return event;
}

/** A reschedule needs somewhere to move from: by default, an earlier pickup date. */
function defaultBefore(type: EventType): Partial<OrderInput> {
  return type === 'order.rescheduled' ? { pickup_at: '2026-03-01' } : {};
}

function transition(
  type: Exclude<EventType, 'order.created'>,
  order: Partial<OrderInput>,
  previously: Partial<OrderInput>,
  context: ReturnType<typeof diffContext>,
): OrderEvent[] {
  const before = parsedOrder({
    ...order,
    ...previously,
    status: statusOf('pending'),
    canceled_at: null,
    completed_at: null,
  });
  const after = laterOrder(before, { ...AFTER[type], ...order, ...restored(previously, order) });
  return diffOrder(snapshotOf(before), after, context).events;
}

/** What `before` changed that `order` does not set: back to the factory's own values after the transition. */
function restored(previously: Partial<OrderInput>, order: Partial<OrderInput>): Partial<OrderInput> {
  const defaults = parsedOrder() as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(previously)
      .filter((key) => !(key in order))
      .map((key) => [key, defaults[key]]),
  ) as Partial<OrderInput>;
}
