// One planned digest made from the event log (pure): the period's events, recorded in [start, end), of
// the digest's types and passing the subscriber's filter, counted by type and by establishment and
// listed in the order recorded. A period with none of them makes no digest: nothing is sent for it.
import type { SubscriberFilter } from '../../config/configSchema.js';
import { isCatchUp } from '../../events/catchUpEvent.js';
import { DIGEST_EVENT_TYPE, type DigestEntry, type DigestEvent } from '../../events/digestEvent.js';
import { type EstablishmentEvent, eventReference, isEstablishmentEvent } from '../../events/notifierEvent.js';
import type { OrderEvent } from '../../events/orderEvent.js';
import type { StoredEvent } from '../../store/stateStore.js';
import { zonedIsoTime } from '../../time/zonedTime.js';
import { matchesFilter } from '../subscriberFilter.js';
import type { PlannedDigest } from './planDigests.js';

export function buildDigest(
  plan: PlannedDigest,
  filter: SubscriberFilter | undefined,
  stored: readonly StoredEvent[],
): DigestEvent | undefined {
  const types = new Set<string>(plan.digest.types);
  const events = [...stored]
    .filter(
      (entry) =>
        entry.organizationId === plan.organization.id &&
        entry.recordedAt >= plan.startMs &&
        entry.recordedAt < plan.endMs &&
        types.has(entry.event.type) &&
        matchesFilter(filter, entry.event),
    )
    .sort((a, b) => a.recordedAt - b.recordedAt)
    .map((entry) => entry.event)
    // A catch-up is never gathered: it stands for events already counted (the config refuses its type).
    .filter((event): event is OrderEvent | EstablishmentEvent => !isCatchUp(event));
  const first = events[0];
  if (first === undefined) return undefined;
  const zone = plan.organization.timeZone;
  const entries = events.map(entryOf);
  return {
    specversion: '1.0',
    id: plan.digestId,
    source: first.source,
    type: DIGEST_EVENT_TYPE,
    subject: plan.subscriberId,
    time: zonedIsoTime(plan.endMs, zone),
    datacontenttype: 'application/json',
    data: {
      subscriber_id: plan.subscriberId,
      organization: { id: plan.organization.id, name: plan.organization.name, time_zone: zone },
      every: plan.digest.every,
      period_start: zonedIsoTime(plan.startMs, zone),
      period_end: zonedIsoTime(plan.endMs, zone),
      by_type: countBy(entries.map((entry) => entry.type)),
      by_establishment: countBy(entries.map((entry) => entry.establishment)),
      events: entries,
    },
  };
}

function entryOf(event: OrderEvent | EstablishmentEvent): DigestEntry {
  // A prep summary or a prep_changed: the establishment and day it is about.
  if (isEstablishmentEvent(event)) {
    return {
      event_id: event.id,
      type: event.type,
      reference: eventReference(event),
      establishment: event.data.establishment.name,
      pickup_date: event.data.pickup_date,
      time: event.time,
    };
  }
  const order = event.data.order;
  return {
    event_id: event.id,
    type: event.type,
    reference: order.reference,
    establishment: order.establishment.name,
    pickup_date: order.pickup_date,
    time: event.time,
  };
}

/** Most first, then by name, so the same period always reads the same. */
function countBy(names: readonly string[]): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
