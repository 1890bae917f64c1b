// The CloudEvents 1.0 envelope every event of the product's contract shares: order events and prep
// summaries differ in `type`, `subject` and `data` only, so consumers read both the same way.
import * as z from 'zod';

/** A CloudEvent schema whose `type` and `data` are the given schemas. */
export function cloudEventSchema<Type extends z.ZodType, Data extends z.ZodType>(type: Type, data: Data) {
  return z.object({
    specversion: z.literal('1.0'),
    id: z.string().min(1),
    /** `<base_url>/organizations/<org uuid>` for every event of an organization. */
    source: z.string().min(1),
    type,
    subject: z.string().min(1),
    /** When the event was detected or recorded (RFC 3339). */
    time: z.iso.datetime({ offset: true }),
    datacontenttype: z.literal('application/json'),
    data,
  });
}
