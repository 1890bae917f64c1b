import { describe, expect, it } from 'vitest';
import { type Order, OrderSchema } from '../../../shared/api/schemas.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { addOrderMix, type OrderMix, scaleOrderMix } from '../../../simulator/orderMix.js';
import { SeededRandom } from '../../../simulator/seededRandom.js';
import { parseTimestamp } from '../../../simulator/timestamps.js';
import { World } from '../../../simulator/world.js';
import { T0, TODAY } from './worldFixture.js';

const MIX: OrderMix = {
  counts: { pending: 40, completed: 120, canceled: 20, archived: 400 },
  daysBack: 3,
  daysAhead: 3,
};

function filledWorld(mix: OrderMix = MIX): World {
  const rng = new SeededRandom(21);
  const world = new World({
    organization: { id: '6f1c1f0e-6a55-4b9f-9d51-2f3b8c1d0a11', name: 'Canteen School' },
    rng: rng.fork('world'),
    clock: () => T0,
    timeZone: 'Europe/Lisbon',
  });
  addOrderMix(world, rng.fork('mix'), mix);
  return world;
}

const byStatus = (orders: Order[], status: string) => orders.filter((order) => order.status.value === status);
const micros = (stamp: string | null) => (stamp === null ? Number.NaN : parseTimestamp(stamp));

describe('addOrderMix', () => {
  it('adds exactly the counts of each status, every pickup date inside the window', () => {
    const orders = filledWorld().listOrders();
    expect(orders).toHaveLength(580);
    expect(byStatus(orders, 'pending')).toHaveLength(40);
    expect(byStatus(orders, 'completed')).toHaveLength(120);
    expect(byStatus(orders, 'canceled')).toHaveLength(20);
    expect(byStatus(orders, 'archived')).toHaveLength(400);
    for (const order of orders) {
      expect(OrderSchema.safeParse(order).success).toBe(true);
      expect(order.pickup_at >= addDays(TODAY, -3) && order.pickup_at <= addDays(TODAY, 3)).toBe(true);
    }
  });

  it('puts pending orders today and ahead, and resolved and archived ones mostly on past days', () => {
    const orders = filledWorld().listOrders();
    const pending = byStatus(orders, 'pending');
    expect(pending.every((order) => order.pickup_at >= TODAY)).toBe(true);
    expect(pending.filter((order) => order.pickup_at === TODAY).length).toBeGreaterThan(pending.length / 4);
    expect(new Set(pending.map((order) => order.pickup_at)).size).toBe(4);
    const completed = byStatus(orders, 'completed');
    expect(completed.every((order) => order.pickup_at <= TODAY)).toBe(true);
    const archived = byStatus(orders, 'archived');
    expect(archived.every((order) => order.pickup_at <= TODAY)).toBe(true);
    expect(archived.filter((order) => order.pickup_at < TODAY).length).toBeGreaterThan(archived.length * 0.8);
  });

  it('gives each order a history in order: created before its pickup day, resolved, then archived, all before now', () => {
    const now = T0 * 1000;
    for (const order of filledWorld().listOrders()) {
      const created = micros(order.created_at);
      expect(order.created_at.slice(0, 10) <= order.pickup_at).toBe(true);
      expect(created).toBeLessThan(now);
      const status = order.status.value;
      if (status === 'pending') continue;
      // An archived order keeps the completed_at or canceled_at of the step before.
      const resolved = micros(order.completed_at ?? order.canceled_at);
      expect(resolved).toBeGreaterThan(created);
      expect(micros(order.updated_at)).toBeGreaterThanOrEqual(resolved);
      expect(micros(order.updated_at)).toBeLessThan(now);
      if (status === 'archived') expect(micros(order.updated_at)).toBeGreaterThan(resolved);
    }
  });

  it('gives references that grow with creation time', () => {
    const orders = filledWorld()
      .listOrders()
      .sort((a, b) => micros(a.created_at) - micros(b.created_at));
    const numbers = orders.map((order) => Number(order.reference.split('-')[1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });
});

describe('scaleOrderMix', () => {
  it('keeps the proportions and hits the total exactly', () => {
    const scaled = scaleOrderMix(MIX, 100);
    const { counts } = scaled;
    expect(counts.pending + counts.completed + counts.canceled + counts.archived).toBe(100);
    expect(counts).toEqual({ pending: 6, completed: 20, canceled: 3, archived: 71 });
    expect(scaleOrderMix(MIX, 0).counts).toEqual({ pending: 0, completed: 0, canceled: 0, archived: 0 });
    expect([scaled.daysBack, scaled.daysAhead]).toEqual([3, 3]);
  });
});
