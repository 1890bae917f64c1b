// The response envelope (spec: "Response envelope", "Pagination") and the error body.
import * as z from 'zod';

export const LinksSchema = z.object({
  first: z.string().nullish(),
  last: z.string().nullish(),
  prev: z.string().nullish(),
  next: z.string().nullish(),
});
export type Links = z.infer<typeof LinksSchema>;

export const MetaSchema = z.object({
  current_page: z.number().int().positive(),
  // Laravel sends null for both on an empty page.
  from: z.number().int().nullish(),
  to: z.number().int().nullish(),
  last_page: z.number().int().nonnegative(),
  per_page: z.number().int().positive(),
  total: z.number().int().nonnegative(),
  path: z.string().optional(),
  links: z.array(z.unknown()).optional(),
});
export type Meta = z.infer<typeof MetaSchema>;

/** A list response; records stay unparsed here so one bad record can be skipped, not fail the page. */
export const ListEnvelopeSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  data: z.array(z.unknown()),
  links: LinksSchema.optional(),
  meta: MetaSchema.optional(),
});
export type ListEnvelope = z.infer<typeof ListEnvelopeSchema>;

/** The body of a failure; every key optional because a proxy or crash page may send anything. */
export const ErrorBodySchema = z.object({
  success: z.boolean().optional(),
  message: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
