// The prep summary of the product's public contract: what one establishment must prepare for one pickup
// date, recorded once at its closing time. Not about a single order, so it has its own envelope type.
import * as z from 'zod';
import { describeTypes } from './catalogNotes.js';
import { cloudEventSchema } from './cloudEventEnvelope.js';

export const PREP_SUMMARY_EVENT_TYPE = 'establishment.prep_summary';

export const PrepSummaryItemSchema = z.object({
  sku: z.string(),
  name: z.string(),
  /** Units of this item (sku and name) across every order counted. */
  quantity: z.number().int().positive(),
});
export type PrepSummaryItem = z.infer<typeof PrepSummaryItemSchema>;

export const ClassCountSchema = z.object({
  /** The customers' class as the API gives it; null for customers without one. */
  class: z.string().nullable(),
  orders: z.number().int().positive(),
});
export type ClassCount = z.infer<typeof ClassCountSchema>;

export const PrepSummaryNoteSchema = z.object({
  /** The order's reference. */
  reference: z.string(),
  /** The customer's class; null for a customer without one. */
  class: z.string().nullable(),
  /** The item line the note is on; absent for the order's own note. */
  item: z.object({ sku: z.string(), name: z.string() }).optional(),
  /** As typed, cut to PREP_SUMMARY_NOTE_MAX_CHARS (ending in "…" when cut). */
  note: z.string().min(1),
  /**
   * The note names one of the organization's highlight words (an allergy or a diet). Decided when the
   * summary is built, with the words of the organization the summary is about, not by each channel: the
   * words are the organization's, like the summary, so every subscriber (a webhook too) reads the same
   * flags, and a summary cut to its size keeps the flagged notes, which come first.
   */
  flagged: z.boolean(),
});
export type PrepSummaryNote = z.infer<typeof PrepSummaryNoteSchema>;

export const PrepSummaryDataSchema = z
  .object({
    organization: z.object({ id: z.string(), name: z.string() }),
    establishment: z.object({ uuid: z.string(), name: z.string() }),
    pickup_date: z.iso.date(),
    /** The establishment's closing time on that date, with its UTC offset. */
    closed_at: z.iso.datetime({ offset: true }),
    /** Pending orders counted. */
    orders: z.number().int().nonnegative(),
    /** By quantity, most first, then by name and sku. */
    items: z.array(PrepSummaryItemSchema),
    /** Orders per customer class, most first; the counts add up to `orders`. */
    classes: z.array(ClassCountSchema),
    canceled_before_closing: z.number().int().nonnegative(),
    /**
     * The notes of the orders counted (the order's own and its item lines'): flagged first, then by
     * reference. Additive: absent on summaries recorded before it existed.
     */
    notes: z.array(PrepSummaryNoteSchema).optional(),
    /** Notes left out, the last in that order, so that the summary stays within an event's size. */
    notes_omitted: z.number().int().positive().optional(),
    /** False when the figures could not all be had; `incomplete_reason` then says why. */
    complete: z.boolean(),
    incomplete_reason: z
      .string()
      .min(1)
      .optional()
      .describe('Why the figures are not complete: present exactly when complete is false.'),
    // Only on the sample `meal-notifier send-test` sends (see sampleEvent.ts); a real summary never has it.
    test: z.literal(true).optional(),
  })
  .refine((data) => data.complete === (data.incomplete_reason === undefined), {
    error: 'incomplete_reason must be present exactly when complete is false',
    path: ['incomplete_reason'],
  });
export type PrepSummaryData = z.infer<typeof PrepSummaryDataSchema>;

const PrepSummaryTypeSchema = z.literal(PREP_SUMMARY_EVENT_TYPE);
describeTypes(PrepSummaryTypeSchema, {
  [PREP_SUMMARY_EVENT_TYPE]:
    'What one establishment must prepare for one pickup date, recorded once at its closing time; subject is the establishment uuid.',
});

export const PrepSummaryEventSchema = cloudEventSchema(PrepSummaryTypeSchema, PrepSummaryDataSchema);
/** `subject` is the establishment's uuid. */
export type PrepSummaryEvent = z.infer<typeof PrepSummaryEventSchema>;
