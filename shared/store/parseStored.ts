// Checks what crosses the store's boundary against its schema, both ways: a value handed in to be written
// that does not fit is a StoreInputError (nothing is written), and a row or item read back that no longer
// fits is a MalformedRecordError naming the record; never a raw ZodError, never a silent wrong value.
import type * as z from 'zod';
import { MalformedRecordError, StoreInputError } from './errors.js';

/**
 * Parses a stored value (a JSON text or a row or item) against the schema it was written from, or the one
 * a function picks for it (a record stored in several versions). `record` names it in the error, e.g.
 * `snapshot of order <uuid>`.
 */
export function parseStored<T>(
  schema: z.ZodType<T> | ((stored: unknown) => z.ZodType<T>),
  value: unknown,
  operation: string,
  organizationId: string | undefined,
  record: string,
): T {
  let data = value;
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value);
    } catch (error) {
      throw new MalformedRecordError(operation, organizationId, record, error as SyntaxError);
    }
  }
  const parsed = (typeof schema === 'function' ? schema(data) : schema).safeParse(data);
  if (parsed.success) return parsed.data;
  throw new MalformedRecordError(operation, organizationId, record, parsed.error);
}

/** Checks a value handed to the store (`what` names it, e.g. `poll state`) before anything is written. */
export function parseInput<T>(
  schema: z.ZodType<T>,
  value: unknown,
  operation: string,
  organizationId: string | undefined,
  what: string,
): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new StoreInputError(operation, organizationId, what, parsed.error);
}
