import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../../simulator/timestamps.js';
import type { WorldChange } from '../../../simulator/worldChange.js';
import { T0, worldFixture } from './worldFixture.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function recorder(fixture: ReturnType<typeof worldFixture>): WorldChange[] {
  const changes: WorldChange[] = [];
  fixture.world.onChange((change) => changes.push(change));
  return changes;
}

describe('World change log', () => {
  it('records creation, status, pickup date, establishment and removal with before, after and where', () => {
    const fixture = worldFixture({ initialOrders: 0 });
    const { world, clock } = fixture;
    const changes = recorder(fixture);
    const order = world.addOrder({ pickupDate: '2026-03-11' });
    const first = order.establishment.uuid;
    const other = world.establishments().find((candidate) => candidate.uuid !== first)?.uuid ?? '';

    clock.now = T0 + MINUTE;
    world.setStatus(order.uuid, 'completed');
    world.setPickupDate(order.uuid, '12/03/26', { atMs: T0 + 2 * MINUTE });
    world.setEstablishment(order.uuid, other, { atMs: T0 + 3 * MINUTE });
    world.setStatus(order.uuid, 'archived', { atMs: T0 + 4 * MINUTE });
    world.removeOrder(order.uuid, { atMs: T0 + 5 * MINUTE });

    const uuid = order.uuid;
    expect(changes).toEqual([
      {
        at: T0,
        orderUuid: uuid,
        kind: 'created',
        from: null,
        to: 'pending',
        pickupDate: '2026-03-11',
        establishmentUuid: first,
      },
      {
        at: T0 + MINUTE,
        orderUuid: uuid,
        kind: 'status',
        from: 'pending',
        to: 'completed',
        pickupDate: '2026-03-11',
        establishmentUuid: first,
      },
      {
        at: T0 + 2 * MINUTE,
        orderUuid: uuid,
        kind: 'pickup_date',
        from: '2026-03-11',
        to: '2026-03-12',
        pickupDate: '2026-03-12',
        establishmentUuid: first,
      },
      {
        at: T0 + 3 * MINUTE,
        orderUuid: uuid,
        kind: 'establishment',
        from: first,
        to: other,
        pickupDate: '2026-03-12',
        establishmentUuid: other,
      },
      {
        at: T0 + 4 * MINUTE,
        orderUuid: uuid,
        kind: 'status',
        from: 'completed',
        to: 'archived',
        pickupDate: '2026-03-12',
        establishmentUuid: other,
      },
      {
        at: T0 + 5 * MINUTE,
        orderUuid: uuid,
        kind: 'removed',
        from: 'archived',
        to: null,
        pickupDate: '2026-03-12',
        establishmentUuid: other,
      },
    ]);
  });

  it('records an order created in a resolved status with that status, at its creation time', () => {
    const fixture = worldFixture({ initialOrders: 0 });
    const changes = recorder(fixture);
    const order = fixture.world.addOrder({ status: 'canceled', createdAtMs: T0 - HOUR });
    expect(changes).toMatchObject([
      { kind: 'created', orderUuid: order.uuid, from: null, to: 'canceled', at: T0 - HOUR },
    ]);
  });

  it('records nothing for a call that leaves the value as it was', () => {
    const fixture = worldFixture({ initialOrders: 0 });
    const { world } = fixture;
    const order = world.addOrder({ notes: 'Egg allergy.' });
    const [item] = order.items;
    if (!item) throw new Error('an order without items');
    const changes = recorder(fixture);
    world.setStatus(order.uuid, 'pending');
    world.setPickupDate(order.uuid, order.pickup_at);
    world.setEstablishment(order.uuid, order.establishment.uuid);
    world.setNotes(order.uuid, 'Egg allergy.');
    world.setItemQuantity(order.uuid, item.uuid, item.quantity);
    world.setItemNotes(order.uuid, item.uuid, item.notes);
    expect(world.removeOrder('00000000-0000-4000-8000-000000000000')).toBe(false);
    expect(changes).toEqual([]);
  });

  it("records an edit of the order's notes, from and to the text, null when there is none", () => {
    const fixture = worldFixture({ initialOrders: 0 });
    const { world } = fixture;
    const order = world.addOrder({ notes: null });
    const changes = recorder(fixture);
    world.setNotes(order.uuid, 'Coeliac: gluten-free only.', { atMs: T0 + MINUTE });
    world.setNotes(order.uuid, null, { atMs: T0 + 2 * MINUTE });
    expect(changes).toEqual([
      expect.objectContaining({
        at: T0 + MINUTE,
        kind: 'notes',
        from: null,
        to: 'Coeliac: gluten-free only.',
      }),
      expect.objectContaining({
        at: T0 + 2 * MINUTE,
        kind: 'notes',
        from: 'Coeliac: gluten-free only.',
        to: null,
      }),
    ]);
    expect(changes[0]).not.toHaveProperty('itemUuid');
  });

  it('stops calling a listener once unsubscribed, and keeps calling the others', () => {
    const fixture = worldFixture({ initialOrders: 0 });
    const { world } = fixture;
    const kept = recorder(fixture);
    const dropped: WorldChange[] = [];
    const unsubscribe = world.onChange((change) => dropped.push(change));
    world.addOrder();
    unsubscribe();
    world.addOrder();
    expect(dropped).toHaveLength(1);
    expect(kept).toHaveLength(2);
  });

  it("stamps the scenario's changes with their own times, in order, even when applied after a long jump", () => {
    const fixture = worldFixture({ scenario: {} });
    const { world, clock } = fixture;
    const changes = recorder(fixture);
    clock.now = T0 + 3 * HOUR;
    const orders = new Map(world.listOrders().map((order) => [order.uuid, order]));

    const kinds = new Set(changes.map((change) => change.kind));
    expect(kinds).toEqual(new Set(['created', 'status']));
    const times = changes.map((change) => change.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThan(T0);
    expect(times.at(-1)).toBeLessThan(clock.now);
    for (const change of changes) {
      const order = orders.get(change.orderUuid);
      if (change.kind === 'created') expect(parseTimestamp(order?.created_at ?? '')).toBe(change.at * 1000);
      if (change.to === 'completed') expect(parseTimestamp(order?.completed_at ?? '')).toBe(change.at * 1000);
      if (change.to === 'canceled') expect(parseTimestamp(order?.canceled_at ?? '')).toBe(change.at * 1000);
    }
    // The last entry per order is the status the world now shows.
    const lastStatus = new Map(changes.map((change) => [change.orderUuid, change.to]));
    expect(lastStatus.size).toBeGreaterThan(10);
    for (const [uuid, status] of lastStatus) expect(orders.get(uuid)?.status.value).toBe(status);
  });
});
