// Reads back what a store adapter wrote, checked against the schema it was written from: a row or item
// that no longer fits is a typed store error naming the operation, never a silent wrong value.
import type * as z from 'zod';
import { StateStoreError } from './errors.js';

/** Parses a stored value (a JSON text or a row) against the schema it was written from. */
export function parseStored<T>(
  schema: z.ZodType<T>,
  value: unknown,
  operation: string,
  organizationId: string | undefined,
  what: string,
): T {
  let data = value;
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value);
    } catch (error) {
      throw new StateStoreError(operation, organizationId, `malformed ${what}: not JSON`, { cause: error });
    }
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new StateStoreError(operation, organizationId, `malformed ${what}: ${parsed.error.message}`, {
    cause: parsed.error,
  });
}
