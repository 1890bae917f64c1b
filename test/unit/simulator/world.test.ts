import { describe, expect, it } from 'vitest';
import { EstablishmentSchema, type Order, OrderSchema } from '../../../shared/api/schemas.js';
import { T0, TODAY, worldFixture } from './worldFixture.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const cents = (amount: string) => Math.round(Number(amount) * 100);

function expectConsistent(order: Order): void {
  const status = order.status.value;
  expect(order.canceled_at !== null && order.completed_at !== null).toBe(false);
  if (status === 'pending') expect([order.canceled_at, order.completed_at]).toEqual([null, null]);
  if (status === 'completed') expect(order.completed_at).not.toBeNull();
  if (status === 'completed') expect(order.canceled_at).toBeNull();
  if (status === 'canceled') expect(order.canceled_at).not.toBeNull();
  if (status === 'canceled') expect(order.completed_at).toBeNull();
  expect(order.can_be_cancelled).toBe(status === 'pending');
  expect(order.updated_at >= order.created_at).toBe(true);
}

describe('World', () => {
  it('builds orders and establishments that validate against the shared zod schemas', () => {
    const { world } = worldFixture({ initialOrders: 200 });
    const orders = world.listOrders();
    expect(orders).toHaveLength(200);
    for (const order of orders) expect(OrderSchema.parse(order)).toEqual(order);
    const establishments = world.establishments();
    expect(establishments.length).toBeGreaterThanOrEqual(3);
    for (const establishment of establishments)
      expect(EstablishmentSchema.parse(establishment)).toEqual(establishment);
  });

  it('writes timestamps to the microsecond, money in euros with digit-string amounts, and totals that add up', () => {
    const { world } = worldFixture({ initialOrders: 100 });
    for (const order of world.listOrders()) {
      for (const stamp of [order.created_at, order.updated_at, order.canceled_at, order.completed_at]) {
        if (stamp !== null) expect(stamp).toMatch(TIMESTAMP);
      }
      expect(order.currency).toBe('EUR');
      expect(order.total.amount).toMatch(/^\d+\.\d{2}$/);
      expect(order.total.formatted).toBe(`€${order.total.amount}`);
      const itemCents = order.items.reduce((sum, item) => sum + cents(item.total.amount), 0);
      expect(cents(order.subtotal.amount)).toBe(itemCents);
      for (const item of order.items)
        expect(cents(item.total.amount)).toBe(cents(item.price.amount) * item.quantity);
    }
  });

  it('keeps canceled_at, completed_at and can_be_cancelled consistent with every status', () => {
    const { world } = worldFixture({ initialOrders: 200 });
    const orders = world.listOrders();
    for (const order of orders) expectConsistent(order);
    const statuses = new Set(orders.map((order) => order.status.value));
    expect(statuses).toEqual(new Set(['pending', 'completed', 'canceled', 'archived']));
    const archived = orders.filter((order) => order.status.value === 'archived');
    expect(archived.some((order) => order.completed_at !== null || order.canceled_at !== null)).toBe(true);
  });

  it('varies customers (with and without class or parent), establishments and payment methods', () => {
    const { world } = worldFixture({ initialOrders: 200 });
    const orders = world.listOrders();
    const customers = orders.map((order) => order.customer);
    expect(customers.some((customer) => customer.class !== null && customer.parent !== null)).toBe(true);
    expect(customers.some((customer) => customer.class !== null && customer.parent === null)).toBe(true);
    expect(customers.some((customer) => customer.class === null && customer.parent === null)).toBe(true);
    const emails = customers.flatMap((customer) => (customer.parent?.email ? [customer.parent.email] : []));
    expect(emails.length).toBeGreaterThan(0);
    for (const email of emails) expect(email).toMatch(/^[a-z]+\.[a-z]+@example\.org$/);
    expect(new Set(orders.map((order) => order.establishment.uuid)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(orders.map((order) => order.payment_method_type.value))).toEqual(
      new Set(['cash', 'card', 'credit']),
    );
  });

  it("starts with more of today's pending orders than fit on one page", () => {
    const { world } = worldFixture();
    const todayPending = world
      .listOrders()
      .filter((order) => order.status.value === 'pending' && order.pickup_at === TODAY);
    expect(todayPending.length).toBeGreaterThan(25);
  });

  it('lists orders by pickup date, then creation time, then uuid', () => {
    const { world } = worldFixture({ initialOrders: 100 });
    const keys = world.listOrders().map((order) => `${order.pickup_at}|${order.created_at}|${order.uuid}`);
    expect(keys).toEqual([...keys].sort());
    const pending = world.listOrders((order) => order.status.value === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((order) => order.status.value === 'pending')).toBe(true);
    expect(world.viewOrders((order) => order.status.value === 'pending').map((order) => order.uuid)).toEqual(
      pending.map((order) => order.uuid),
    );
  });

  it('moves an order through statuses, stamping and clearing canceled_at and completed_at', () => {
    const { world, clock } = worldFixture({ initialOrders: 0 });
    const order = world.addOrder();
    expect(order.status.value).toBe('pending');
    expectConsistent(order);

    clock.now = T0 + 60_000;
    const canceled = world.setStatus(order.uuid, 'canceled');
    expect(canceled.canceled_at).toBe('2026-03-10T11:01:00.000000Z');
    expect(canceled.updated_at).toBe(canceled.canceled_at);
    expect(canceled.items.every((item) => item.status.value === 'canceled')).toBe(true);

    clock.now = T0 + 120_000;
    const archived = world.setStatus(order.uuid, 'archived');
    expect(archived.canceled_at).toBe(canceled.canceled_at);
    expect(archived.completed_at).toBeNull();
    expect(archived.updated_at).toBe('2026-03-10T11:02:00.000000Z');

    const reopened = world.setStatus(order.uuid, 'pending');
    expect([reopened.canceled_at, reopened.completed_at]).toEqual([null, null]);
    const completed = world.setStatus(order.uuid, 'completed');
    expect(completed.completed_at).toBe(completed.updated_at);
    expect(completed.items.every((item) => item.fulfilled_quantity === item.quantity)).toBe(true);
    expect(world.setStatus(order.uuid, 'archived').completed_at).toBe(completed.completed_at);
  });

  it('bumps updated_at on every change, even several within one millisecond', () => {
    const { world } = worldFixture({ initialOrders: 0 });
    const order = world.addOrder();
    const stamps = [
      order.updated_at,
      world.setStatus(order.uuid, 'completed').updated_at,
      world.setPickupDate(order.uuid, '2026-03-11').updated_at,
      world.setNotes(order.uuid, 'Allergic to nuts.').updated_at,
    ];
    expect(new Set(stamps).size).toBe(4);
    expect(stamps).toEqual([...stamps].sort());
  });

  it('adds an order with overrides and draws everything else', () => {
    const { world } = worldFixture({ initialOrders: 0 });
    const establishment = world.establishments()[2];
    const customer = world.customers()[0];
    if (!establishment || !customer) throw new Error('fixture has no establishments or customers');
    const order = world.addOrder({
      uuid: '11111111-2222-4333-8444-555555555555',
      reference: 'REF-1',
      status: 'completed',
      pickupDate: '12/03/26',
      establishment: establishment.uuid,
      paymentMethod: 'cash',
      customer,
      notes: null,
    });
    expect(order).toMatchObject({
      uuid: '11111111-2222-4333-8444-555555555555',
      reference: 'REF-1',
      pickup_at: '2026-03-12',
      establishment: { uuid: establishment.uuid, name: establishment.name },
      payment_method_type: { value: 'cash' },
      customer,
      notes: null,
      status: { value: 'completed' },
    });
    expect(order.completed_at).toBe(order.updated_at);
    expect(order.completed_at && order.completed_at > order.created_at).toBe(true);
    expect(world.addOrder().pickup_at).toBe(TODAY);
    expect(() => world.addOrder({ uuid: order.uuid })).toThrow(RangeError);
  });

  it('moves an order to another pickup date or establishment, and removes it', () => {
    const { world } = worldFixture({ initialOrders: 0 });
    const order = world.addOrder();
    const target = world.establishments().find((candidate) => candidate.uuid !== order.establishment.uuid);
    if (!target) throw new Error('fixture has one establishment');
    expect(world.setPickupDate(order.uuid, '2026-03-13').pickup_at).toBe('2026-03-13');
    expect(world.setEstablishment(order.uuid, target.uuid).establishment).toEqual({
      uuid: target.uuid,
      name: target.name,
    });
    expect(() => world.setEstablishment(order.uuid, '00000000-0000-4000-8000-000000000000')).toThrow(
      RangeError,
    );
    expect(() => world.setPickupDate(order.uuid, '2026-02-30')).toThrow(RangeError);
    expect(world.removeOrder(order.uuid)).toBe(true);
    expect(world.getOrder(order.uuid)).toBeUndefined();
    expect(world.removeOrder(order.uuid)).toBe(false);
    expect(() => world.setStatus(order.uuid, 'completed')).toThrow(RangeError);
  });

  it('renames an establishment for its listing and the orders placed after, not those placed before', () => {
    const { world } = worldFixture({ initialOrders: 0 });
    const [canteen] = world.establishments();
    if (!canteen) throw new Error('fixture has no establishment');
    const before = world.addOrder({ establishment: canteen.uuid });
    world.setEstablishmentName(canteen.uuid, 'Cantina\u001b[2J');
    expect(world.establishments()[0]?.name).toBe('Cantina\u001b[2J');
    expect(world.addOrder({ establishment: canteen.uuid }).establishment.name).toBe('Cantina\u001b[2J');
    expect(world.getOrder(before.uuid)?.establishment.name).toBe(canteen.name);
    expect(() => world.setEstablishmentName('00000000-0000-4000-8000-000000000000', 'x')).toThrow(RangeError);
  });

  it('adds an order that has already lived, stamped at each step of its history', () => {
    const { world } = worldFixture({ initialOrders: 0 });
    const uuid = world.addOrderWithHistory({ createdAtMs: T0 - 3 * 3_600_000 }, [
      { status: 'canceled', atMs: T0 - 2 * 3_600_000 },
      { status: 'archived', atMs: T0 - 3_600_000 },
    ]);
    const order = world.getOrder(uuid);
    if (!order) throw new Error('order not added');
    expectConsistent(order);
    expect(order).toMatchObject({
      status: { value: 'archived' },
      created_at: '2026-03-10T08:00:00.000000Z',
      canceled_at: '2026-03-10T09:00:00.000000Z',
      updated_at: '2026-03-10T10:00:00.000000Z',
    });
  });

  it('hands out copies, so editing a returned order does not change the world', () => {
    const { world } = worldFixture({ initialOrders: 1 });
    const [order] = world.listOrders();
    if (!order) throw new Error('empty world');
    order.status.value = 'canceled';
    expect(world.getOrder(order.uuid)?.status.value).not.toBe('canceled');
  });
});
