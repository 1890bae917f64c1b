// Valid Admin API fixtures (orders, establishments, list envelopes) so tests only spell out what they vary.
import type { OrderInput } from '../../shared/api/schemas.js';

type OrderItemInput = OrderInput['items'][number];
type MoneyInput = OrderInput['total'];

export const ESTABLISHMENT_UUID = 'e5a1b2c3-0000-4000-8000-000000000001';

let sequence = 0;

/** A well-formed uuid whose last group is `n`; `group` keeps orders, customers and items apart. */
export function testUuid(n: number, group = '8000'): string {
  return `00000000-0000-4000-${group}-${n.toString(16).padStart(12, '0')}`;
}

export function orderUuid(n: number): string {
  return testUuid(n, '8000');
}

export function money(cents: number, currency = 'EUR'): MoneyInput {
  return { amount: String(cents), currency, formatted: `€${(cents / 100).toFixed(2)}` };
}

export function makeOrderItem(overrides: Partial<OrderItemInput> = {}): OrderItemInput {
  sequence += 1;
  return {
    uuid: testUuid(sequence, 'a000'),
    sku: 'SOUP-01',
    name: 'Vegetable soup',
    description: 'Soup of the day',
    price: money(350),
    quantity: 1,
    total: money(350),
    image: '',
    notes: null,
    fulfilled_quantity: 0,
    fulfillment_status: 'unfulfilled',
    is_menu: false,
    status: { label: 'Pending', value: 'pending' },
    created_at: '2026-03-04T09:15:00.000000Z',
    ...overrides,
  };
}

/** A valid order (per OrderSchema); uuid `orderUuid(n)` with a fresh `n` unless overridden. */
export function makeOrder(overrides: Partial<OrderInput> = {}): OrderInput {
  sequence += 1;
  const n = sequence;
  return {
    uuid: orderUuid(n),
    currency: 'EUR',
    reference: `ORD-${n}`,
    subtotal: money(350),
    total: money(350),
    pickup_at: '2026-03-05',
    canceled_at: null,
    completed_at: null,
    notes: null,
    created_at: '2026-03-04T09:15:00.000000Z',
    updated_at: '2026-03-04T09:15:00.000000Z',
    can_be_cancelled: true,
    status: { label: 'Pending', value: 'pending' },
    payment_method_type: { label: 'Card', value: 'card' },
    customer: {
      uuid: testUuid(n, '9000'),
      full_name: 'Ana Silva',
      class: '3B',
      parent: {
        uuid: testUuid(n, 'b000'),
        full_name: 'Rui Silva',
        email: 'parent@example.test',
        phone: '+351 000 000 000',
        credit: money(1000),
      },
    },
    establishment: { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' },
    items: [makeOrderItem()],
    ...overrides,
  };
}

export function makeOrders(count: number): OrderInput[] {
  return Array.from({ length: count }, () => makeOrder());
}

export interface EstablishmentInput {
  uuid: string;
  name: string;
  allowed_order_pickup_time_type: string;
  allowed_order_pickup_time_interval: string[];
  working_days: number[];
  order_closing_time: string;
  menu_closing_time: string | null;
  daily_order_closure: number;
  status: { label: string; value: string };
  created_at: string;
  updated_at: string;
}

export function makeEstablishment(overrides: Partial<EstablishmentInput> = {}): EstablishmentInput {
  sequence += 1;
  return {
    uuid: testUuid(sequence, 'c000'),
    name: `Canteen ${sequence}`,
    allowed_order_pickup_time_type: 'anytime',
    allowed_order_pickup_time_interval: [],
    working_days: [1, 2, 3, 4, 5],
    order_closing_time: '10:30:00',
    menu_closing_time: null,
    daily_order_closure: 1,
    status: { label: 'Enabled', value: 'enabled' },
    created_at: '2025-02-12T08:00:00.000000Z',
    updated_at: '2025-02-12T08:00:00.000000Z',
    ...overrides,
  };
}

/** A bare `{ success, message, data }` envelope, without pagination keys. */
export function envelope(data: unknown[]): Record<string, unknown> {
  return { success: true, message: 'OK', data };
}

export interface PageOptions {
  /** The listing URL without `page` (meta.path), e.g. `http://127.0.0.1:1234/api/v1/admin/orders`. */
  path: string;
  page: number;
  lastPage: number;
  total: number;
  /** Query string kept in the links, without `?` and without `page`. */
  query?: string;
  /** Overrides links.next (null for none); by default it points at page + 1 until lastPage. */
  next?: string | null;
}

/** A Laravel-style paginated envelope: data plus `links` and `meta`. */
export function paginatedEnvelope(data: unknown[], options: PageOptions): Record<string, unknown> {
  const pageUrl = (page: number) => `${options.path}?${options.query ? `${options.query}&` : ''}page=${page}`;
  const from = data.length === 0 ? null : (options.page - 1) * 25 + 1;
  return {
    success: true,
    message: 'Orders retrieved',
    data,
    links: {
      first: pageUrl(1),
      last: pageUrl(options.lastPage),
      prev: options.page > 1 ? pageUrl(options.page - 1) : null,
      next:
        options.next !== undefined
          ? options.next
          : options.page < options.lastPage
            ? pageUrl(options.page + 1)
            : null,
    },
    meta: {
      current_page: options.page,
      from,
      to: from === null ? null : from + data.length - 1,
      last_page: options.lastPage,
      per_page: 25,
      total: options.total,
      path: options.path,
      links: [],
    },
  };
}
