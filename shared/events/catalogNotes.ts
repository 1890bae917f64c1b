// What the event catalog (`meal-notifier event-schema`, eventCatalog.ts) says of an event beyond what its
// zod schema does: what each type announces, and which optional keys every event recorded now carries.
// Registered beside each schema, in a zod registry of its own so nothing here leaks into other JSON Schemas.
import * as z from 'zod';

export interface CatalogNotes {
  /** On an event's `type` schema: what each of its types announces, by type. */
  types?: Readonly<Record<string, string>>;
  /**
   * On an object schema: the optional keys that every event recorded now has. They are optional in zod only
   * so that events an earlier version recorded (in the log, queued for a retry, sent again by `replay`)
   * still read; the catalog lists them as required, so that consumers learn what a new event carries.
   */
  sentAlways?: readonly string[];
}

export const catalogNotes = z.registry<CatalogNotes>();

/** Notes that every event recorded now carries these keys of `schema` (see CatalogNotes.sentAlways). */
export function sentAlways<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape, z.core.$ZodObjectConfig>,
  keys: ReadonlyArray<keyof Shape & string>,
): void {
  catalogNotes.add(schema, { ...catalogNotes.get(schema), sentAlways: keys });
}

/** Notes what each type a `type` schema takes announces, for the catalog's description of each type. */
export function describeTypes<Type extends string>(
  schema: z.ZodType<Type>,
  descriptions: Readonly<Record<Type, string>>,
): void {
  catalogNotes.add(schema, { ...catalogNotes.get(schema), types: descriptions });
}
