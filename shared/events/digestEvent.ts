// The digest an e-mail subscriber gets instead of one message per event: one period's events of its
// digest types, counted and listed. Internal to delivery (never sent to webhooks or Slack, never in
// `events` listings): it rides the outbox like any event so that it is retried and dead-lettered the same.
import * as z from 'zod';
import { cloudEventSchema } from './cloudEventEnvelope.js';
import { EventTypeSchema } from './notifierEvent.js';

export const DIGEST_EVENT_TYPE = 'digest.email';

export const DigestEntrySchema = z.object({
  /** The summarized event's id, so a reader can find it in `meal-notifier events`. */
  event_id: z.string(),
  type: EventTypeSchema,
  /** The order's reference, or the establishment and date of a prep summary or prep_changed. */
  reference: z.string(),
  establishment: z.string(),
  pickup_date: z.string(),
  /** When the event was detected (RFC 3339). */
  time: z.string(),
});
export type DigestEntry = z.infer<typeof DigestEntrySchema>;

const CountSchema = z.object({ name: z.string(), count: z.number().int().positive() });

export const DigestDataSchema = z.object({
  subscriber_id: z.string(),
  organization: z.object({ id: z.string(), name: z.string(), time_zone: z.string() }),
  every: z.enum(['1h', '1d']),
  /** The period, [start, end), with the organization's UTC offset. */
  period_start: z.iso.datetime({ offset: true }),
  period_end: z.iso.datetime({ offset: true }),
  /** Events per type and per establishment, most first. */
  by_type: z.array(CountSchema),
  by_establishment: z.array(CountSchema),
  /** The period's events in the order recorded: every one, or this part's run of them. */
  events: z.array(DigestEntrySchema).min(1),
  /**
   * Present when the period's digest was too big for one message (splitDigest.ts): which part this is,
   * where its events start among the period's, and, in the last part of a digest that was cut, how many of
   * the period's events no part lists. `by_type` and `by_establishment` always count the whole period.
   */
  part: z
    .object({
      number: z.number().int().positive(),
      of: z.number().int().positive(),
      /** The 1-based position of this part's first event among the period's events. */
      first_event: z.number().int().positive(),
      /** The period's events in no part (0 unless this is the last part of a cut digest). */
      left_out: z.number().int().nonnegative(),
    })
    .optional(),
});
export type DigestData = z.infer<typeof DigestDataSchema>;

export const DigestEventSchema = cloudEventSchema(z.literal(DIGEST_EVENT_TYPE), DigestDataSchema);
/** `subject` is the subscriber id; `time` the period's end. */
export type DigestEvent = z.infer<typeof DigestEventSchema>;

export function isDigest(event: { type: string }): event is DigestEvent {
  return event.type === DIGEST_EVENT_TYPE;
}
