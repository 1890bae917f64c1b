// Draws a new pending order from an organization's catalog: who orders, where, how they pay and what.
// Everything not given in the draft comes from the seeded stream, so the same draws give the same order.
import type { Customer, Order, OrderItem, PaymentMethod } from '../shared/api/schemas.js';
import { ITEM_NOTES, ORDER_NOTES } from './catalog.js';
import { CURRENCY, centsOf, money } from './money.js';
import { paymentMethodObject, statusObject } from './orderStatus.js';
import type { CatalogProduct, OrganizationCatalog } from './organizationCatalog.js';
import type { SeededRandom } from './seededRandom.js';
import { formatTimestamp } from './timestamps.js';

export interface OrderDraft {
  reference: string;
  /** YYYY-MM-DD. */
  pickupDate: string;
  createdAtMicros: number;
  uuid?: string;
  establishmentUuid?: string;
  paymentMethod?: PaymentMethod;
  customer?: Customer;
  notes?: string | null;
}

const PAYMENT_WEIGHTS: ReadonlyArray<readonly [PaymentMethod, number]> = [
  ['card', 45],
  ['credit', 35],
  ['cash', 20],
];

export function buildPendingOrder(rng: SeededRandom, catalog: OrganizationCatalog, draft: OrderDraft): Order {
  const establishment =
    draft.establishmentUuid === undefined
      ? rng.pick(catalog.establishments)
      : catalog.establishments.find((candidate) => candidate.uuid === draft.establishmentUuid);
  if (!establishment)
    throw new RangeError(`no establishment ${draft.establishmentUuid} in this organization`);
  const customer = draft.customer ?? rng.pick(catalog.customers);
  const paymentMethod = draft.paymentMethod ?? rng.weighted(PAYMENT_WEIGHTS);
  const notes = draft.notes !== undefined ? draft.notes : rng.chance(0.15) ? rng.pick(ORDER_NOTES) : null;
  const createdAt = formatTimestamp(draft.createdAtMicros);
  const items = drawItems(rng, catalog, customer, createdAt);
  const subtotalCents = items.reduce((sum, item) => sum + item.cents, 0);
  return {
    uuid: draft.uuid ?? rng.uuid(),
    currency: CURRENCY,
    reference: draft.reference,
    subtotal: money(subtotalCents),
    total: money(subtotalCents),
    pickup_at: draft.pickupDate,
    canceled_at: null,
    completed_at: null,
    notes,
    created_at: createdAt,
    updated_at: createdAt,
    can_be_cancelled: true,
    status: statusObject('pending'),
    payment_method_type: paymentMethodObject(paymentMethod),
    customer: structuredClone(customer),
    establishment: { uuid: establishment.uuid, name: establishment.name },
    items: items.map((item) => item.record),
  };
}

function drawItems(
  rng: SeededRandom,
  catalog: OrganizationCatalog,
  customer: Customer,
  createdAt: string,
): Array<{ record: OrderItem; cents: number }> {
  const allowed = productsFor(catalog, customer);
  const chosen: CatalogProduct[] = [];
  const wanted = rng.weighted([
    [1, 50],
    [2, 35],
    [3, 15],
  ] as const);
  while (chosen.length < wanted && chosen.length < allowed.length) {
    const product = rng.pick(allowed);
    if (!chosen.includes(product)) chosen.push(product);
  }
  return chosen.map((product) => {
    // Drawn in this order (quantity, uuid, notes): a seed replays the same items.
    const quantity = rng.chance(0.2) ? 2 : 1;
    const uuid = rng.uuid();
    const notes = rng.chance(0.1) ? rng.pick(ITEM_NOTES) : null;
    const record = buildItem(product, customer, { uuid, quantity, notes, createdAt });
    return { record, cents: centsOf(record.total) };
  });
}

/** The products a customer may order: a class restriction keeps some from students of that class. */
export function productsFor(catalog: OrganizationCatalog, customer: Customer): CatalogProduct[] {
  return catalog.products.filter(
    (product) => customer.class === null || !product.record.class_restrictions.includes(customer.class),
  );
}

/** A pending, unfulfilled line of `product` at the price the customer's class pays. */
export function buildItem(
  product: CatalogProduct,
  customer: Customer,
  line: { uuid: string; quantity: number; notes: string | null; createdAt: string },
): OrderItem {
  const classPrice = product.record.class_prices.find((entry) => entry.class === customer.class);
  const unitCents = classPrice ? centsOf(classPrice.price) : product.template.priceCents;
  return {
    uuid: line.uuid,
    sku: product.record.sku,
    name: product.record.name,
    description: product.record.description,
    price: money(unitCents),
    quantity: line.quantity,
    total: money(unitCents * line.quantity),
    image: product.record.image,
    notes: line.notes,
    fulfilled_quantity: 0,
    fulfillment_status: 'unfulfilled',
    is_menu: product.record.is_menu,
    status: statusObject('pending'),
    created_at: line.createdAt,
  };
}

/**
 * Sets each line's total to its price times its quantity, and the order's subtotal and total to the sum
 * of the lines (the simulated service charges nothing on top), all in integer cents.
 */
export function recomputeTotals(order: Order): void {
  let subtotalCents = 0;
  for (const item of order.items) {
    const lineCents = centsOf(item.price) * item.quantity;
    item.total = money(lineCents, item.price.currency);
    subtotalCents += lineCents;
  }
  order.subtotal = money(subtotalCents, order.currency);
  order.total = money(subtotalCents, order.currency);
}
