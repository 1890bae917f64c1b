import { describe, expect, it } from 'vitest';
import {
  EstablishmentSchema,
  MoneySchema,
  type OrderInput,
  OrderSchema,
  OrderStatusSchema,
  PaymentMethodSchema,
  ProductSchema,
} from '../../../shared/api/schemas.js';
import { makeEstablishment, makeOrder, makeOrderItem, money } from '../../support/orderFactory.js';

/** Returns a deep copy of `value` with the property at `path` set (or deleted when `replacement` is DELETE). */
const DELETE = Symbol('delete');
function withPath(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (replacement === DELETE) delete target[last];
  else target[last] = replacement;
  return copy;
}

describe('OrderSchema', () => {
  it('parses a well-formed order', () => {
    const input = makeOrder();
    const parsed = OrderSchema.parse(input);
    expect(parsed.uuid).toBe(input.uuid);
    expect(parsed.items).toHaveLength(1);
    expect(parsed.customer.parent?.credit.amount).toBe('1000');
  });

  it('normalizes pickup_at from DD/MM/YY to YYYY-MM-DD', () => {
    expect(OrderSchema.parse(makeOrder({ pickup_at: '05/03/26' })).pickup_at).toBe('2026-03-05');
  });

  it('keeps pickup_at already in YYYY-MM-DD', () => {
    expect(OrderSchema.parse(makeOrder({ pickup_at: '2026-11-09' })).pickup_at).toBe('2026-11-09');
  });

  it('rejects an impossible pickup date like 31/02/26, naming the field', () => {
    const result = OrderSchema.safeParse(makeOrder({ pickup_at: '31/02/26' }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['pickup_at']);
  });

  it('rejects a pickup date in neither documented form', () => {
    expect(OrderSchema.safeParse(makeOrder({ pickup_at: 'March 5th' })).success).toBe(false);
  });

  it.each<[string, Array<string | number>]>([
    ['canceled_at', ['canceled_at']],
    ['completed_at', ['completed_at']],
    ['notes', ['notes']],
    ['customer.class', ['customer', 'class']],
    ['customer.parent', ['customer', 'parent']],
    ['customer.parent.email', ['customer', 'parent', 'email']],
    ['customer.parent.phone', ['customer', 'parent', 'phone']],
    ['items[0].description', ['items', 0, 'description']],
    ['items[0].notes', ['items', 0, 'notes']],
  ])('accepts null for %s, as the spec allows', (_name, path) => {
    const result = OrderSchema.safeParse(withPath(makeOrder(), path, null));
    expect(result.error?.issues).toBeUndefined();
    expect(result.success).toBe(true);
  });

  it.each<[string, Array<string | number>]>([
    ['uuid', ['uuid']],
    ['reference', ['reference']],
    ['pickup_at', ['pickup_at']],
    ['created_at', ['created_at']],
    ['status', ['status']],
    ['payment_method_type', ['payment_method_type']],
    ['customer', ['customer']],
    ['customer.full_name', ['customer', 'full_name']],
    ['establishment', ['establishment']],
    ['total', ['total']],
    ['items', ['items']],
    ['items[0].price', ['items', 0, 'price']],
  ])('rejects null for %s, which the spec does not allow to be null', (_name, path) => {
    expect(OrderSchema.safeParse(withPath(makeOrder(), path, null)).success).toBe(false);
  });

  it.each<[string, Array<string | number>]>([
    ['uuid', ['uuid']],
    ['total', ['total']],
    ['pickup_at', ['pickup_at']],
    ['status', ['status']],
    ['status.value', ['status', 'value']],
    ['can_be_cancelled', ['can_be_cancelled']],
    ['customer.uuid', ['customer', 'uuid']],
    ['establishment.name', ['establishment', 'name']],
    ['items[0].quantity', ['items', 0, 'quantity']],
    ['customer.parent.credit', ['customer', 'parent', 'credit']],
  ])('rejects an order missing %s', (_name, path) => {
    expect(OrderSchema.safeParse(withPath(makeOrder(), path, DELETE)).success).toBe(false);
  });

  it.each<[string, Array<string | number>, unknown]>([
    ['a uuid that is not a uuid', ['uuid'], 'order-1'],
    ['an empty reference', ['reference'], ''],
    ['can_be_cancelled as a string', ['can_be_cancelled'], 'true'],
    ['items as an object', ['items'], {}],
    ['a fractional quantity', ['items', 0, 'quantity'], 1.5],
    ['a negative quantity', ['items', 0, 'quantity'], -1],
    ['an empty status value', ['status', 'value'], ''],
    ['a money object without currency', ['total', 'currency'], undefined],
  ])('rejects %s', (_name, path, value) => {
    expect(OrderSchema.safeParse(withPath(makeOrder(), path, value)).success).toBe(false);
  });

  it.each([null, 'an order', 42, []])('rejects a record that is not an object: %j', (record) => {
    expect(OrderSchema.safeParse(record).success).toBe(false);
  });

  it('accepts extra fields anywhere, keeping those of the order, its customer and its item lines', () => {
    const input = makeOrder() as OrderInput & Record<string, unknown>;
    const extended = {
      ...input,
      loyalty_points: 12,
      subtotal: { ...input.subtotal, tax_included: true },
      status: { ...input.status, colour: 'amber' },
      customer: {
        ...input.customer,
        school_year: 3,
        parent: input.customer.parent && { ...input.customer.parent, locale: 'pt' },
      },
      establishment: { ...input.establishment, timezone: 'Europe/Lisbon' },
      items: input.items.map((item) => ({ ...item, allergens: ['gluten'] })),
    };
    const parsed = OrderSchema.parse(extended);
    // What the events carry whole: fields the spec does not name yet are kept there.
    expect(parsed).toHaveProperty('loyalty_points', 12);
    expect(parsed.customer).toHaveProperty('school_year', 3);
    expect(parsed.items[0]).toHaveProperty('allergens', ['gluten']);
    // The small shared objects keep to what the spec names.
    expect(parsed.subtotal).not.toHaveProperty('tax_included');
    expect(parsed.status).not.toHaveProperty('colour');
    expect(parsed.customer.parent).not.toHaveProperty('locale');
    expect(parsed.establishment).not.toHaveProperty('timezone');
  });

  it('accepts a status value the spec does not list, and keeps it', () => {
    const parsed = OrderSchema.parse(makeOrder({ status: { label: 'Em preparação', value: 'preparing' } }));
    expect(parsed.status.value).toBe('preparing');
  });

  it('accepts a payment method value the spec does not list, and keeps it', () => {
    const parsed = OrderSchema.parse(makeOrder({ payment_method_type: { label: 'MB Way', value: 'mbway' } }));
    expect(parsed.payment_method_type.value).toBe('mbway');
  });

  it('accepts an order with no items', () => {
    expect(OrderSchema.parse(makeOrder({ items: [] })).items).toEqual([]);
  });

  it('accepts an item with an empty image and an unlisted fulfilment status', () => {
    const item = makeOrderItem({ image: '', fulfillment_status: 'partially_fulfilled' });
    expect(OrderSchema.parse(makeOrder({ items: [item] })).items[0]?.fulfillment_status).toBe(
      'partially_fulfilled',
    );
  });
});

describe('MoneySchema', () => {
  it('accepts an amount written as digits', () => {
    expect(MoneySchema.parse(money(1250))).toEqual({ amount: '1250', currency: 'EUR', formatted: '€12.50' });
    expect(MoneySchema.parse({ ...money(0), amount: '0' }).amount).toBe('0');
  });

  it.each(['', '12,50', '12 EUR', '€12', 'abc', '1e3', ' 12'])('rejects the amount %j', (amount) => {
    expect(MoneySchema.safeParse({ ...money(1), amount }).success).toBe(false);
  });

  it('rejects an amount sent as a number instead of a string', () => {
    expect(MoneySchema.safeParse({ ...money(1), amount: 1250 }).success).toBe(false);
  });

  it('rejects an empty currency', () => {
    expect(MoneySchema.safeParse({ ...money(1), currency: '' }).success).toBe(false);
  });
});

describe('filter enums', () => {
  it('list exactly the documented order statuses', () => {
    expect(OrderStatusSchema.options).toEqual(['pending', 'completed', 'canceled', 'archived']);
    expect(OrderStatusSchema.safeParse('preparing').success).toBe(false);
  });

  it('list exactly the documented payment method types', () => {
    expect(PaymentMethodSchema.options).toEqual(['cash', 'card', 'credit']);
    expect(PaymentMethodSchema.safeParse('mbway').success).toBe(false);
  });
});

describe('EstablishmentSchema', () => {
  it('parses a full establishment record', () => {
    const input = makeEstablishment({
      allowed_order_pickup_time_type: 'slots',
      allowed_order_pickup_time_interval: ['12:00', '12:30'],
      menu_closing_time: '09:00:00',
    });
    expect(EstablishmentSchema.parse(input)).toEqual(input);
  });

  it('accepts a null menu_closing_time', () => {
    expect(EstablishmentSchema.parse(makeEstablishment({ menu_closing_time: null })).menu_closing_time).toBe(
      null,
    );
  });

  it('keeps fields the spec does not list, so the cached establishments hand them on whole', () => {
    const parsed = EstablishmentSchema.parse({ ...makeEstablishment(), capacity: 300 });
    expect(parsed).toHaveProperty('capacity', 300);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a null order_closing_time', { order_closing_time: null }],
    ['an order_closing_time that is not a clock time', { order_closing_time: 'noon' }],
    ['a pickup slot that is not HH:MM', { allowed_order_pickup_time_interval: ['12h00'] }],
    ['working day 0', { working_days: [0, 1] }],
    ['working day 8', { working_days: [8] }],
    ['daily_order_closure 2', { daily_order_closure: 2 }],
    ['daily_order_closure as a boolean', { daily_order_closure: true }],
    ['a missing status', { status: undefined }],
    ['a uuid that is not a uuid', { uuid: 'canteen' }],
  ])('rejects %s', (_name, overrides) => {
    expect(EstablishmentSchema.safeParse({ ...makeEstablishment(), ...overrides }).success).toBe(false);
  });
});

describe('ProductSchema', () => {
  it('keeps any object whole, unknown fields included', () => {
    const product = { uuid: 'p-1', name: 'Menu', class_prices: [{ class: '3B', price: money(300) }] };
    expect(ProductSchema.parse(product)).toEqual(product);
  });

  it('accepts an empty object', () => {
    expect(ProductSchema.parse({})).toEqual({});
  });

  it.each([null, [], 'product', 7])('rejects %j, which is not an object', (value) => {
    expect(ProductSchema.safeParse(value).success).toBe(false);
  });
});
