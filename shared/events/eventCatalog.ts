// The event catalog: one JSON Schema (draft 2020-12) of the CloudEvent of every event type, generated with
// zod's `z.toJSONSchema` from the schemas the notifier records and reads its events with, as
// configJsonSchema.ts does for the config, so that it cannot disagree with them. Every type of the union
// (EVENT_TYPES, NotifierEventSchema) is in it, found there: a type added to the union is in the catalog
// without a line here. `meal-notifier event-schema` prints it; the AsyncAPI document of the webhooks
// (delivery/webhook/webhookAsyncApi.ts) carries the same definitions.
import * as z from 'zod';
import { catalogNotes } from './catalogNotes.js';
import { EVENT_TYPES, type EventType, NotifierEventSchema } from './notifierEvent.js';
import { ChangeSchema, OrderEventSchema, OrderLineSchema, OrderSummarySchema } from './orderEvent.js';

export type JsonSchema = Record<string, unknown>;

export interface EventCatalogOptions {
  /** The types to describe, in this order; default every one. One type: its schema is the root. */
  types?: readonly EventType[];
  /**
   * Also accept what an earlier version recorded: the schema as the notifier reads its own log, with the
   * keys every event recorded now carries left optional. Default false: the schema "as sent" (below).
   */
  lenient?: boolean;
  /** draft-07 for the AsyncAPI document, whose schemas are a superset of it. @default 'draft-2020-12' */
  target?: 'draft-2020-12' | 'draft-07';
}

// "As sent" or "as stored". The zod schemas must read every event the log holds, so the fields added to
// the order since 0.1.0 (its currency, subtotal, timestamps, line prices, …) are optional there, though
// every event recorded now has them. A catalog copied from that would tell consumers that a new event may
// lack them, and they would code for an absence that never happens. So the catalog lists as required the
// keys each schema notes as sent always (catalogNotes.ts, `sentAlways`, beside the schema that has them):
// derived from the same zod schemas by one `override` of the JSON Schema generator, never written twice.
// What it costs: an event recorded by an earlier version and delivered after an upgrade (a late retry, a
// `replay`) may lack those keys; the description of each object that has them says so, and `lenient`
// (`event-schema --lenient`) gives the schema that accepts those events too.

/** The shared parts, as named definitions: each order type refers to them instead of repeating them. */
const SHARED_DEFINITIONS: ReadonlyArray<[string, z.core.$ZodType]> = [
  ['OrderEventData', OrderEventSchema.shape.data],
  ['OrderSummary', OrderSummarySchema],
  ['OrderLine', OrderLineSchema],
  ['Change', ChangeSchema],
];

/** `OrderStatusChangedEvent` for `order.status_changed`: what code generators name the type after. */
export function eventTypeTitle(type: string): string {
  const words = type.split(/[._-]/).filter(Boolean);
  return `${words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('')}Event`;
}

type EventObjectSchema = z.ZodObject<{ type: z.ZodType } & z.ZodRawShape>;

/** The union's object schemas, with any union nested in it opened. */
function unionMembers(schema: z.core.$ZodType): EventObjectSchema[] {
  if (schema instanceof z.ZodUnion) return schema.options.flatMap((option) => unionMembers(option));
  if (schema instanceof z.ZodObject && schema.shape.type instanceof z.ZodType) {
    return [schema as EventObjectSchema];
  }
  throw new Error('every member of NotifierEventSchema is an object with a type, or a union of them');
}

export interface CatalogEntry {
  type: EventType;
  /** The union's member that reads this type, its `type` narrowed to this one. */
  schema: EventObjectSchema;
  /** What the type announces, as its schema notes it; undefined when it notes nothing. */
  description: string | undefined;
}

/**
 * Each type of EVENT_TYPES with the one member of NotifierEventSchema that reads it. Throws when a type has
 * no member or two: EVENT_TYPES and the union disagree, a bug a test finds.
 */
export function catalogEntries(types: readonly EventType[] = EVENT_TYPES): CatalogEntry[] {
  const members = unionMembers(NotifierEventSchema);
  return types.map((type) => {
    const readers = members.filter((member) => member.shape.type.safeParse(type).success);
    const [member] = readers;
    if (member === undefined || readers.length > 1) {
      throw new Error(`${readers.length} members of NotifierEventSchema read the event type ${type}`);
    }
    const typeSchema = member.shape.type;
    const description =
      catalogNotes.get(typeSchema)?.types?.[type] ??
      (typeSchema instanceof z.ZodLiteral ? typeSchema.description : undefined);
    return { type, schema: member.extend({ type: z.literal(type) }), description };
  });
}

/** Metadata for the generator: zod's global registry (descriptions, `.meta()`), with ids and titles over it. */
class CatalogMetadata extends z.core.$ZodRegistry<z.core.GlobalMeta> {
  override get(schema: z.core.$ZodType): z.core.GlobalMeta | undefined {
    const global = z.globalRegistry.get(schema);
    const own = super.get(schema);
    return global === undefined && own === undefined ? undefined : { ...global, ...own };
  }
}

export interface EventDefinitions {
  /** The JSON Schema dialect, as `$schema` names it. */
  $schema: string;
  /** Where a schema of that dialect keeps its definitions, and where `$ref`s into them point. */
  key: '$defs' | 'definitions';
  /** One per type, by type and in EVENT_TYPES' order, then the parts they share, by name. */
  definitions: Record<string, JsonSchema>;
  entries: CatalogEntry[];
}

/** The definitions of the catalog: each type's schema, and the shared parts they refer to. */
export function eventDefinitions(options: EventCatalogOptions = {}): EventDefinitions {
  const { lenient = false, target = 'draft-2020-12' } = options;
  const entries = catalogEntries(options.types ?? EVENT_TYPES);
  const metadata = new CatalogMetadata();
  for (const [id, schema] of SHARED_DEFINITIONS) metadata.add(schema, { id });
  for (const { type, schema, description } of entries) {
    metadata.add(schema, { id: type, title: eventTypeTitle(type), description });
  }
  const [first, ...rest] = entries.map((entry) => entry.schema);
  if (first === undefined) throw new RangeError('an event catalog describes one type at least');
  const generated = z.toJSONSchema(z.union([first, ...rest]), {
    target,
    io: 'input',
    metadata,
    ...(lenient ? {} : { override: requireSentAlways }),
  }) as JsonSchema;
  const key = target === 'draft-07' ? 'definitions' : '$defs';
  const generatedDefinitions = (generated[key] ?? {}) as Record<string, JsonSchema>;
  const definitions: Record<string, JsonSchema> = {};
  for (const { type } of entries) definitions[type] = titleFirst(generatedDefinitions[type] ?? {});
  for (const [id, definition] of Object.entries(generatedDefinitions)) definitions[id] ??= definition;
  return { $schema: String(generated.$schema), key, definitions, entries };
}

/** The catalog: `oneOf` over one definition per type, or, for a single type, that type's schema itself. */
export function eventCatalog(options: EventCatalogOptions = {}): JsonSchema {
  const { $schema, key, definitions, entries } = eventDefinitions(options);
  const [only, ...others] = entries;
  if (only && others.length === 0) {
    const { [only.type]: root, ...shared } = definitions;
    return { $schema, ...root, ...(Object.keys(shared).length > 0 ? { [key]: shared } : {}) };
  }
  return {
    $schema,
    title: 'meal-order-notifier events',
    description:
      'Every event meal-order-notifier sends (a webhook body, a poll --events line, an SNS message): a CloudEvents 1.0 envelope whose type names the definition it follows. Types are added without notice, as keys are: ignore an event whose type is not one of these, and keys you do not know.',
    oneOf: entries.map(({ type }) => ({ $ref: `#/${key}/${type}` })),
    [key]: definitions,
  };
}

/** The same schema with its title and description first, for a person reading it. */
function titleFirst({ title, description, ...rest }: JsonSchema): JsonSchema {
  return { title, ...(description === undefined ? {} : { description }), ...rest };
}

/** The generator's override: an object's keys noted as sent always are required ("as sent", above). */
function requireSentAlways(context: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const { zodSchema, jsonSchema } = context;
  const keys = catalogNotes.get(zodSchema)?.sentAlways;
  if (!keys || !(zodSchema instanceof z.ZodObject)) return;
  const required = new Set([...((jsonSchema.required as string[] | undefined) ?? []), ...keys]);
  // In the order of the properties, as zod writes `required`.
  jsonSchema.required = Object.keys(zodSchema.shape).filter((key) => required.has(key));
  const note = `Required as every event recorded now has them; one an earlier version recorded, delivered late (a retry, a replay), may lack ${keys.join(', ')} (event-schema --lenient accepts that).`;
  jsonSchema.description =
    typeof jsonSchema.description === 'string' ? `${jsonSchema.description} ${note}` : note;
}
