// Draws a new pending order from an organization's catalog: who orders, where, how they pay and what.
// Everything not given in the draft comes from the seeded stream, so the same draws give the same order.
import type { Customer, Order, OrderItem, PaymentMethod } from '../shared/api/schemas.js';
import { ITEM_NOTES, ORDER_NOTES } from './catalog.js';
import { CURRENCY, money } from './money.js';
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
  const allowed = catalog.products.filter(
    (product) => customer.class === null || !product.record.class_restrictions.includes(customer.class),
  );
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
    const quantity = rng.chance(0.2) ? 2 : 1;
    const classPrice = product.record.class_prices.find((entry) => entry.class === customer.class);
    const unitCents = classPrice
      ? Math.round(Number(classPrice.price.amount) * 100)
      : product.template.priceCents;
    const record: OrderItem = {
      uuid: rng.uuid(),
      sku: product.record.sku,
      name: product.record.name,
      description: product.record.description,
      price: money(unitCents),
      quantity,
      total: money(unitCents * quantity),
      image: product.record.image,
      notes: rng.chance(0.1) ? rng.pick(ITEM_NOTES) : null,
      fulfilled_quantity: 0,
      fulfillment_status: 'unfulfilled',
      is_menu: product.record.is_menu,
      status: statusObject('pending'),
      created_at: createdAt,
    };
    return { record, cents: unitCents * quantity };
  });
}

/**
 * The order holding `quantity` of the catalog product `product`: its line's quantity and total changed, a
 * new line (uuid `lineUuid`) when it had none, no line at 0; the order's subtotal and total follow.
 * Edits `order` in place.
 */
export function setLineQuantity(
  order: Order,
  product: CatalogProduct,
  quantity: number,
  lineUuid: string,
): void {
  const { sku } = product.record;
  const cents = (amount: string) => Math.round(Number(amount) * 100);
  const line = order.items.find((item) => item.sku === sku);
  if (quantity <= 0) {
    order.items = order.items.filter((item) => item.sku !== sku);
  } else if (line) {
    line.quantity = quantity;
    line.total = money(cents(line.price.amount) * quantity);
  } else {
    const unitCents = cents(product.record.price.amount);
    order.items.push({
      uuid: lineUuid,
      sku,
      name: product.record.name,
      description: product.record.description,
      price: money(unitCents),
      quantity,
      total: money(unitCents * quantity),
      image: product.record.image,
      notes: null,
      fulfilled_quantity: 0,
      fulfillment_status: 'unfulfilled',
      is_menu: product.record.is_menu,
      status: statusObject('pending'),
      created_at: order.updated_at,
    });
  }
  const subtotal = order.items.reduce((sum, item) => sum + cents(item.total.amount), 0);
  order.subtotal = money(subtotal);
  order.total = money(subtotal);
}
