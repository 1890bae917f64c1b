// The event catalog (`meal-notifier event-schema`): a definition per type of the union, found there; every
// event the notifier makes (the diff engine's, the prep summary builder's, each send-test sample) is valid,
// with contact details or without; a wrong one is refused at the path that is wrong; and, "as sent", an
// order event missing a key every event recorded now carries is refused, while the lenient catalog and
// the notifier's own schema still read it.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { sampleEventFor } from '../../../cli/sendTest/sampleEventFor.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { catalogEntries, eventCatalog, eventTypeTitle } from '../../../shared/events/eventCatalog.js';
import {
  EVENT_TYPES,
  type NotifierEvent,
  NotifierEventSchema,
} from '../../../shared/events/notifierEvent.js';
import { ORDER_EVENT_TYPES } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber, fittedToCarrier } from '../../../shared/events/orderSummary.js';
import { exampleConfig } from '../../support/configFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem } from '../../support/orderFactory.js';
import { makePrepSummary } from '../../support/prepSummaryFixtures.js';

type Schema = Record<string, unknown> & { $defs: Record<string, Definition> };
type Definition = Record<string, unknown> & {
  properties: Record<string, { const?: unknown }>;
  required: string[];
};

const NOW = Date.parse('2026-11-23T10:15:03.000Z');
const catalog = eventCatalog() as Schema;
const lenient = eventCatalog({ lenient: true }) as Schema;

/** zod writes a pattern beside each format it names, so formats need no plug-in to be checked. */
function compile(schema: unknown): ValidateFunction {
  return new Ajv2020({ allErrors: true, strict: true, validateFormats: false }).compile(schema as object);
}
const validate = compile(catalog);
const validateLenient = compile(lenient);

function problems(check: ValidateFunction, event: unknown): string[] {
  return check(JSON.parse(JSON.stringify(event))) ? [] : (check.errors ?? []).map(problem);
}

function problem(error: ErrorObject): string {
  return `${error.instancePath} ${error.message}`;
}

/** The event as it goes out: to a subscriber without contact details, and to one that opted in. */
function bothWays(event: NotifierEvent): NotifierEvent[] {
  return [eventForSubscriber(event, false), eventForSubscriber(event, true)];
}

describe('eventCatalog', () => {
  it('has a definition per type of the union, each titled, described and told apart by a type const', () => {
    expect(catalog.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(catalog.oneOf).toEqual(EVENT_TYPES.map((type) => ({ $ref: `#/$defs/${type}` })));
    for (const type of EVENT_TYPES) {
      const definition = catalog.$defs[type];
      expect(definition?.title, type).toBe(eventTypeTitle(type));
      expect(definition?.properties.type).toEqual({ type: 'string', const: type });
      expect(definition?.required, type).toEqual(expect.arrayContaining(['id', 'type', 'data']));
    }
    // A type added to the union without a word on what it announces is named here.
    expect(EVENT_TYPES.filter((type) => !catalog.$defs[type]?.description)).toEqual([]);
    expect(eventTypeTitle('establishment.prep_summary')).toBe('EstablishmentPrepSummaryEvent');
  });

  it('finds each type in exactly one member of the union', () => {
    expect(catalogEntries().map((entry) => entry.schema.shape.type.parse(entry.type))).toEqual([
      ...EVENT_TYPES,
    ]);
  });

  it.each(EVENT_TYPES)('accepts the %s sample send-test sends, with contact details or without', (type) => {
    const config = parseConfig(exampleConfig());
    for (const subscriber of config.subscribers) {
      for (const event of bothWays(sampleEventFor(config, subscriber, type, NOW))) {
        expect(problems(validate, event), `${type} for ${subscriber.id}`).toEqual([]);
      }
    }
  });

  it.each(ORDER_EVENT_TYPES)('accepts the %s the diff engine makes, after closing or not', (type) => {
    for (const summarySent of [() => false, () => true]) {
      for (const event of bothWays(makeOrderEvent({ type, summarySent }))) {
        expect(problems(validate, event), type).toEqual([]);
      }
    }
  });

  it('accepts an order cut to fit, and the API keys the spec does not name', () => {
    const items = Array.from({ length: 400 }, (_, index) =>
      makeOrderItem({ sku: `SKU-${index}`, description: 'x'.repeat(400) }),
    );
    const event = fittedToCarrier(makeOrderEvent({ order: { items, loyalty_points: 12 } as never }));
    expect(event.data.order.items_omitted).toBeGreaterThan(0);
    expect(event.data.order).toHaveProperty('loyalty_points', 12);
    expect(problems(validate, event)).toEqual([]);
  });

  it('accepts prep summaries, complete or not', () => {
    const complete = makePrepSummary([{ items: [['SOUP', 'Soup', 2]] }]);
    const incomplete = makePrepSummary([], { incompleteReason: 'the pending listing failed' });
    expect(problems(validate, complete)).toEqual([]);
    expect(problems(validate, incomplete)).toEqual([]);
  });

  it('refuses a wrong event, saying where: by the definition its type names, one line', () => {
    const event = makeOrderEvent({ type: 'order.canceled' });
    const wrong = { ...event, data: { ...event.data, order: { ...event.data.order, reference: 1058 } } };
    expect(validate(wrong)).toBe(false);
    expect((validate.errors ?? []).map(problem)).toContain('/data/order/reference must be string');
    const byType = compile({ ...catalog, $ref: '#/$defs/order.canceled', oneOf: undefined });
    expect(problems(byType, wrong)).toEqual(['/data/order/reference must be string']);
    // A key the notifier only ever writes as true, never false.
    const notLate = { ...event, data: { ...event.data, after_closing: false } };
    expect(problems(byType, notLate)).toEqual(['/data/after_closing must be equal to constant']);
    expect(validate({ ...event, type: 'order.refunded' })).toBe(false);
  });

  it('as sent: refuses an order missing a key every event recorded now has; lenient, and zod, read it', () => {
    const event = makeOrderEvent({ type: 'order.completed' });
    const { currency: _currency, ...order } = event.data.order;
    const [line, ...lines] = event.data.order.items;
    const { price: _price, ...priceless } = line ?? { name: '', quantity: 0 };
    const older = { ...event, data: { ...event.data, order: { ...order, items: [priceless, ...lines] } } };

    expect(problems(validate, older)).toEqual(
      expect.arrayContaining([
        "/data/order must have required property 'currency'",
        "/data/order/items/0 must have required property 'price'",
      ]),
    );
    expect(problems(validateLenient, older)).toEqual([]);
    expect(NotifierEventSchema.safeParse(older).success).toBe(true);
    // Keys that only some events have stay optional: contact details, names of a move, the cut.
    const summary = catalog.$defs.OrderSummary as Definition;
    expect(summary.required).toEqual(expect.arrayContaining(['currency', 'subtotal', 'can_be_cancelled']));
    expect(summary.required).not.toContain('items_omitted');
    expect(summary.description).toMatch(/--lenient/);
    expect(lenient.$defs.OrderSummary?.required).not.toContain('currency');
  });

  it('--type: one type’s schema is the root, with the parts it shares as definitions', () => {
    const single = eventCatalog({ types: ['order.canceled'] }) as Schema;
    expect(single).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'OrderCanceledEvent',
      properties: { type: { const: 'order.canceled' } },
    });
    expect(Object.keys(single.$defs)).toEqual(['OrderEventData', 'OrderSummary', 'OrderLine', 'Change']);
    const check = compile(single);
    expect(problems(check, makeOrderEvent({ type: 'order.canceled' }))).toEqual([]);
    expect(check(makeOrderEvent({ type: 'order.created' }))).toBe(false);

    const summary = eventCatalog({ types: ['establishment.prep_summary'] }) as Schema;
    expect(summary.$defs).toBeUndefined();
    expect(problems(compile(summary), makePrepSummary([]))).toEqual([]);
  });
});
