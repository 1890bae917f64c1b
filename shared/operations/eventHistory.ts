// What `meal-notifier events` lists, locally and for a deployed stack: the recorded events that answer a
// query, newest first across the organizations, each with what became of it per subscriber. Locally that
// is the outbox's record of each delivery; a stack records no delivery per event (SNS and SQS carry them),
// so there each subscriber whose filter matches is listed as `routed`.
import * as z from 'zod';
import type { SubscriberConfig } from '../config/configSchema.js';
import { type Delivery, DeliveryStatusSchema } from '../delivery/deliveryOutbox.js';
import { matchesFilter } from '../delivery/subscriberFilter.js';
import { EventTypeSchema, eventReference, NotifierEventSchema } from '../events/notifierEvent.js';
import { eventForSubscriber } from '../events/orderSummary.js';
import type { EventQuery } from '../store/eventQuery.js';
import type { StateStore, StoredEvent } from '../store/stateStore.js';
import { IsoTimeSchema, isoTime, isoTimeOrNull } from '../time/isoTime.js';

export const SubscriberDeliverySchema = z.object({
  subscriberId: z.string(),
  /** `queued`, `delivered` or `dead` from the local outbox; `routed` on a stack (its filter matches). */
  status: z.union([DeliveryStatusSchema, z.literal('routed')]),
  /** Attempts made so far; null on a stack. */
  attempts: z.number().int().nullable(),
  /** When the next attempt is due, while queued. */
  nextAttemptAt: IsoTimeSchema.nullable(),
  deliveredAt: IsoTimeSchema.nullable(),
  /** The last failure, kept on dead letters and after a later success alike. */
  lastError: z.string().nullable(),
});
export type SubscriberDelivery = z.infer<typeof SubscriberDeliverySchema>;

export const ListedEventSchema = z.object({
  id: z.string(),
  type: EventTypeSchema,
  /** When the notifier recorded it. */
  recordedAt: IsoTimeSchema,
  organizationId: z.string(),
  /** What it is about: the order, or for a prep summary or prep_changed its establishment (uuid) and day. */
  order: z.object({ uuid: z.string(), reference: z.string() }),
  /** One per subscriber it went to, by subscriber id; empty when no subscriber's filter matched. */
  deliveries: z.array(SubscriberDeliverySchema),
  /** The CloudEvent as subscribers get it, without contact details (nobody opted in here). */
  event: NotifierEventSchema,
});
export type ListedEvent = z.infer<typeof ListedEventSchema>;

export interface FoundEvents {
  /** Newest first, at most the query's limit. */
  events: StoredEvent[];
  /** Whether more events answer the query than the limit let through. */
  more: boolean;
}

/** The newest events of these organizations that answer the query, merged newest first. */
export async function findRecentEvents(
  store: Pick<StateStore, 'findEvents'>,
  organizationIds: readonly string[],
  query: EventQuery,
): Promise<FoundEvents> {
  // One more than asked for, per organization: whether any is left out is then known without a count.
  const perOrganization = { ...query, limit: query.limit + 1 };
  const found: StoredEvent[] = [];
  for (const organizationId of organizationIds) {
    found.push(...(await store.findEvents(organizationId, perOrganization)));
  }
  // Stable: one organization's events keep the store's order, which breaks ties by commit order.
  found.sort((a, b) => b.recordedAt - a.recordedAt);
  return { events: found.slice(0, query.limit), more: found.length > query.limit };
}

/** A delivery as the local outbox records it. */
export function outboxDelivery(delivery: Delivery): SubscriberDelivery {
  return {
    subscriberId: delivery.subscriberId,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === 'queued' ? isoTime(delivery.nextAttemptAt) : null,
    deliveredAt: isoTimeOrNull(delivery.deliveredAt),
    lastError: delivery.lastError,
  };
}

/** On a stack: the subscribers the event topic hands the event to (enabled, and their filter matches). */
export function routedDeliveries(
  subscribers: readonly SubscriberConfig[],
  stored: StoredEvent,
): SubscriberDelivery[] {
  return subscribers
    .filter((subscriber) => subscriber.enabled && matchesFilter(subscriber.filter, stored.event))
    .map((subscriber) => ({
      subscriberId: subscriber.id,
      status: 'routed' as const,
      attempts: null,
      nextAttemptAt: null,
      deliveredAt: null,
      lastError: null,
    }))
    .sort((a, b) => (a.subscriberId < b.subscriberId ? -1 : a.subscriberId > b.subscriberId ? 1 : 0));
}

export function listedEvent(stored: StoredEvent, deliveries: SubscriberDelivery[]): ListedEvent {
  const { event } = stored;
  return {
    id: event.id,
    type: event.type,
    recordedAt: isoTime(stored.recordedAt),
    organizationId: stored.organizationId,
    order: { uuid: event.subject, reference: eventReference(event) },
    deliveries,
    event: eventForSubscriber(event, false),
  };
}
