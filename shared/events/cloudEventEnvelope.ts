// The CloudEvents 1.0 envelope every event of the product's contract shares: order events and prep
// summaries differ in `type`, `subject` and `data` only, so consumers read both the same way.
import * as z from 'zod';

/** A CloudEvent schema whose `type` and `data` are the given schemas. */
export function cloudEventSchema<Type extends z.ZodType, Data extends z.ZodType>(type: Type, data: Data) {
  return z.object({
    specversion: z.literal('1.0').describe('CloudEvents 1.0.'),
    id: z
      .string()
      .min(1)
      .describe(
        'Derived from what happened, so the same event seen twice (two runs, a retry, a replay) has the same id: deduplicate on it. A send-test sample has test-<uuid>.',
      ),
    source: z
      .string()
      .min(1)
      .describe('<base_url>/organizations/<organization uuid>, the same for every event of an organization.'),
    type,
    subject: z
      .string()
      .min(1)
      .describe(
        'What the event is about, by uuid: the order of an order event, the establishment of a prep summary.',
      ),
    time: z.iso
      .datetime({ offset: true })
      .describe("When the notifier detected or recorded it (RFC 3339); the API's own times are in data."),
    datacontenttype: z.literal('application/json'),
    data,
  });
}
