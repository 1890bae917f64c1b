// The catch-up: one message a person gets instead of order events that went stale (their change happened
// longer than the subscriber's `catchUpAfter` before they could be delivered: the notifier was stopped, the
// API failed, Slack or the mail server was down). It says how long, counts what happened by type and
// establishment, and lists what still needs a person: orders changed after closing and flagged notes.
// Slack and e-mail only; webhooks get every event instead. Recorded by the poll cycle on AWS (one per
// threshold), composed per subscriber by the local outbox.
import * as z from 'zod';
import { describeTypes } from './catalogNotes.js';
import { cloudEventSchema } from './cloudEventEnvelope.js';
import { OrderEventTypeSchema } from './orderEvent.js';

export const CATCH_UP_EVENT_TYPE = 'notifier.catch_up';

/** Longest lists a catch-up carries: enough to act on, short enough to read in one message. */
export const CATCH_UP_LIST_MAX = 20;

const OrderLineSchema = z.object({
  order_uuid: z.string(),
  reference: z.string(),
  establishment: z.string(),
  pickup_date: z.string(),
});

export const CatchUpAfterClosingSchema = OrderLineSchema.extend({ type: OrderEventTypeSchema });
export type CatchUpAfterClosing = z.infer<typeof CatchUpAfterClosingSchema>;

export const CatchUpNoteSchema = OrderLineSchema.extend({
  customer: z.string(),
  /** The flagged notes, the order's own first, then its lines' ("Lasagne: no egg"). */
  notes: z.array(z.string()).min(1),
});
export type CatchUpNote = z.infer<typeof CatchUpNoteSchema>;

const CountSchema = z.object({ name: z.string(), count: z.number().int().positive() });

export const CatchUpDataSchema = z.object({
  /** `time_zone` when known: the times below then carry its offset, as the organization reads them. */
  organization: z.object({ id: z.string(), name: z.string(), time_zone: z.string().optional() }),
  /** The threshold it was made for, in seconds: the subscribers whose `catchUpAfter` it is get it. */
  catch_up_after: z.number().int().positive(),
  /** Composed by the local outbox for this subscriber alone; absent on AWS. */
  subscriber_id: z.string().optional(),
  /**
   * When the organization went unpolled: from its last successful cycle to the cycle that found the
   * changes. Absent when the events were held up after they were found (delivery), or not known.
   */
  unpolled: z
    .object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
    .optional(),
  /** The span of the changes summarized, by the API's own timestamps (detection time where it has none). */
  first_change_at: z.iso.datetime({ offset: true }),
  last_change_at: z.iso.datetime({ offset: true }),
  /** Events summarized, and their ids: each was delivered to the subscriber by this catch-up. */
  events: z.number().int().positive(),
  /**
   * Of those, the ones already stale when they were found (the organization was not polled in time); the
   * others went stale on their way to the subscriber (Slack or the mail server was down, or slow).
   */
  found_late: z.number().int().nonnegative(),
  event_ids: z.array(z.string()),
  /** Events per type and per establishment (name), most first. */
  by_type: z.array(CountSchema),
  by_establishment: z.array(CountSchema),
  /**
   * What a subscriber filter sees of it (docs/architecture.md, the SNS filter policies): the types,
   * establishments (uuids, lower-cased), order statuses and payment methods of the events summarized.
   */
  types: z.array(OrderEventTypeSchema),
  establishments: z.array(z.string()),
  statuses: z.array(z.string()),
  payment_methods: z.array(z.string()),
  /** Events after the prep summary of their day was sent: how many, and the first CATCH_UP_LIST_MAX. */
  after_closing_count: z.number().int().nonnegative(),
  after_closing: z.array(CatchUpAfterClosingSchema).max(CATCH_UP_LIST_MAX),
  /** Orders whose notes are flagged (the organization's highlight words, noteHighlights.ts): how many, and the first CATCH_UP_LIST_MAX. */
  notes_count: z.number().int().nonnegative(),
  notes: z.array(CatchUpNoteSchema).max(CATCH_UP_LIST_MAX),
  // Only on the sample `meal-notifier send-test` sends (see sampleEvent.ts); a real catch-up never has it.
  test: z.literal(true).optional(),
});
export type CatchUpData = z.infer<typeof CatchUpDataSchema>;

const CatchUpTypeSchema = z.literal(CATCH_UP_EVENT_TYPE);
describeTypes(CatchUpTypeSchema, {
  [CATCH_UP_EVENT_TYPE]:
    'One message for a person instead of order events that went stale (older than the subscriber’s catchUpAfter when they could be sent): counts by type and establishment, orders after closing, flagged notes. Sent to Slack and e-mail subscribers only; subject is the organization id.',
});

export const CatchUpEventSchema = cloudEventSchema(CatchUpTypeSchema, CatchUpDataSchema);
/** `subject` is the organization's id. */
export type CatchUpEvent = z.infer<typeof CatchUpEventSchema>;

export function isCatchUp(event: { type: string }): event is CatchUpEvent {
  return event.type === CATCH_UP_EVENT_TYPE;
}
