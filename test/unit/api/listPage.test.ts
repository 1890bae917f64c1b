import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { firstIssue, parseListPage } from '../../../shared/api/listPage.js';
import { OrderSchema } from '../../../shared/api/schemas.js';
import { envelope, makeOrder, makeOrders, paginatedEnvelope } from '../../support/orderFactory.js';

const PATH = 'http://127.0.0.1:1/api/v1/admin/orders';

function parsedOrThrow(body: unknown) {
  const result = parseListPage(body, OrderSchema);
  if (!result.ok) throw new Error(`expected a page, got: ${result.problem}`);
  return result.page;
}

describe('parseListPage', () => {
  it('reads orders inside the envelope, with its links and meta', () => {
    const orders = makeOrders(3);
    const page = parsedOrThrow(paginatedEnvelope(orders, { path: PATH, page: 1, lastPage: 2, total: 28 }));
    expect(page.shape).toBe('envelope');
    expect(page.records.map((order) => order.uuid)).toEqual(orders.map((order) => order.uuid));
    expect(page.skipped).toEqual([]);
    expect(page.links?.next).toBe(`${PATH}?page=2`);
    expect(page.meta).toMatchObject({ current_page: 1, last_page: 2, total: 28, per_page: 25 });
  });

  it('reads orders given as a bare array, without links or meta', () => {
    const orders = makeOrders(2);
    const page = parsedOrThrow(orders);
    expect(page.shape).toBe('bare');
    expect(page.records).toHaveLength(2);
    expect(page.links).toBeUndefined();
    expect(page.meta).toBeUndefined();
  });

  it('reads an envelope without pagination keys', () => {
    const page = parsedOrThrow(envelope(makeOrders(1)));
    expect(page.shape).toBe('envelope');
    expect(page.records).toHaveLength(1);
    expect(page.meta).toBeUndefined();
  });

  it('normalizes pickup_at of every record on the page', () => {
    const page = parsedOrThrow([
      makeOrder({ pickup_at: '05/03/26' }),
      makeOrder({ pickup_at: '2026-03-06' }),
    ]);
    expect(page.records.map((order) => order.pickup_at)).toEqual(['2026-03-05', '2026-03-06']);
  });

  it('skips a malformed order but keeps the rest of the page', () => {
    const good = makeOrders(2);
    const bad = makeOrder({ pickup_at: '31/02/26' });
    const page = parsedOrThrow(envelope([good[0], bad, good[1]]));
    expect(page.records.map((order) => order.uuid)).toEqual([good[0]?.uuid, good[1]?.uuid]);
    expect(page.skipped).toEqual([
      { index: 1, uuid: bad.uuid, problem: expect.stringContaining('pickup_at') },
    ]);
  });

  it('skips malformed orders in a bare array too', () => {
    const bad = { ...makeOrder(), total: null };
    const page = parsedOrThrow([makeOrder(), bad]);
    expect(page.records).toHaveLength(1);
    expect(page.skipped).toEqual([{ index: 1, uuid: bad.uuid, problem: expect.stringContaining('total') }]);
  });

  it('reports the field path of the problem', () => {
    const order = makeOrder();
    const bad = {
      ...order,
      items: [{ ...order.items[0], price: { amount: '3,50', currency: 'EUR', formatted: '' } }],
    };
    const page = parsedOrThrow([bad]);
    expect(page.skipped[0]?.problem).toBe('items[0].price.amount: expected a string of digits');
  });

  it.each<[string, unknown]>([
    ['a string', 'not an order'],
    ['null', null],
    ['an object without uuid', { reference: 'ORD-1' }],
    ['a numeric uuid', { uuid: 42 }],
    ['an empty uuid', { uuid: '' }],
    ['an absurdly long uuid', { uuid: 'x'.repeat(65) }],
  ])('skips %s with no uuid to report', (_name, record) => {
    const page = parsedOrThrow([record, makeOrder()]);
    expect(page.records).toHaveLength(1);
    expect(page.skipped).toHaveLength(1);
    expect(page.skipped[0]?.uuid).toBeUndefined();
    expect(page.skipped[0]?.index).toBe(0);
  });

  it('reports the uuid of a broken record even when the uuid itself is not a valid uuid', () => {
    const page = parsedOrThrow([{ ...makeOrder(), uuid: 'legacy-17' }]);
    expect(page.skipped[0]?.uuid).toBe('legacy-17');
  });

  it('refuses an envelope that says success: false', () => {
    const result = parseListPage({ success: false, message: 'nope', data: [] }, OrderSchema);
    expect(result).toEqual({ ok: false, problem: 'envelope says success: false' });
  });

  it.each<[string, unknown]>([
    ['data is an object', { success: true, data: {} }],
    ['data is missing', { success: true, message: 'OK' }],
    ['success is missing', { data: [] }],
    ['meta lacks total', { success: true, data: [], meta: { current_page: 1, last_page: 1, per_page: 25 } }],
    ['the body is a string', 'OK'],
    ['the body is null', null],
  ])('refuses a body that is not a list (%s)', (_name, body) => {
    const result = parseListPage(body, OrderSchema);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(/^not a list envelope \(.+\)$/);
  });

  it('accepts meta with null from/to on an empty page', () => {
    const page = parsedOrThrow(paginatedEnvelope([], { path: PATH, page: 1, lastPage: 1, total: 0 }));
    expect(page.meta).toMatchObject({ from: null, to: null, total: 0 });
  });

  it('accepts extra envelope keys', () => {
    const page = parsedOrThrow({ ...envelope(makeOrders(1)), request_id: 'abc', debug: { ms: 3 } });
    expect(page.records).toHaveLength(1);
  });
});

describe('firstIssue', () => {
  it('writes the path with brackets for indexes and dots for keys', () => {
    const schema = z.object({ a: z.array(z.object({ b: z.string() })) });
    const error = schema.safeParse({ a: [{ b: 1 }] }).error;
    expect(error && firstIssue(error)).toMatch(/^a\[0\]\.b: /);
  });

  it('gives the bare message for an issue at the root', () => {
    const error = z.string().safeParse(1).error;
    expect(error && firstIssue(error)).not.toContain(':  ');
    expect(error && firstIssue(error)).toMatch(/expected string/);
  });
});
