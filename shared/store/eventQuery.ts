// A question to the event log, as operators ask it (`meal-notifier events`): one organization's events
// recorded since a time, of some types, of one order, newest first and at most so many. Both store
// adapters answer it (StateStore.findEvents); `matchesEventQuery` is its meaning, which an adapter that
// cannot filter on everything server-side applies itself.
import * as z from 'zod';
import { EventTypeSchema, eventReference, type NotifierEvent } from '../events/notifierEvent.js';

export const EventQuerySchema = z.object({
  /** Recorded at or after this instant (epoch ms); every event the log keeps when absent. */
  sinceMs: z.number().optional(),
  /** Only these types; every type when absent or empty. */
  types: z.array(EventTypeSchema).optional(),
  /** Only this order's events, named by its reference (e.g. NS-1031) or its uuid, in any case. */
  order: z.string().min(1).optional(),
  /** At most this many, the newest. */
  limit: z.number().int().positive(),
});
export type EventQuery = z.infer<typeof EventQuerySchema>;

/** What a query reads of a stored event (StateStore's StoredEvent, which names EventQuery in turn). */
interface QueriedEvent {
  event: NotifierEvent;
  recordedAt: number;
}

/** Whether the stored event answers the query (its limit aside). */
export function matchesEventQuery(stored: QueriedEvent, query: EventQuery): boolean {
  if (query.sinceMs !== undefined && stored.recordedAt < query.sinceMs) return false;
  if (query.types && query.types.length > 0 && !query.types.includes(stored.event.type)) return false;
  if (query.order !== undefined) {
    const wanted = query.order.toLowerCase();
    const { subject } = stored.event;
    const reference = eventReference(stored.event);
    if (subject.toLowerCase() !== wanted && reference.toLowerCase() !== wanted) return false;
  }
  return true;
}
