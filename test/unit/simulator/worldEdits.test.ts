import { describe, expect, it } from 'vitest';
import { OrderSchema } from '../../../shared/api/schemas.js';
import { parseTimestamp } from '../../../simulator/timestamps.js';
import type { WorldChange } from '../../../simulator/worldChange.js';
import { totalsProblems } from './orderTotals.js';
import { T0, worldFixture } from './worldFixture.js';

const MINUTE = 60_000;

function setup() {
  const fixture = worldFixture({ initialOrders: 0 });
  const changes: WorldChange[] = [];
  fixture.world.onChange((change) => changes.push(change));
  return { ...fixture, changes };
}

/** A pending order of a student of a class, so class prices apply, with at least one line. */
function studentOrder(world: ReturnType<typeof setup>['world']) {
  const customer = world.customers().find((candidate) => candidate.class !== null);
  if (!customer) throw new Error('no student in the catalog');
  return world.addOrder({ customer, pickupDate: '2026-03-11' });
}

function firstItem(order: { items: Array<{ uuid: string; quantity: number; sku: string }> }) {
  const [item] = order.items;
  if (!item) throw new Error('an order without items');
  return item;
}

describe('Editing an order through the world API', () => {
  it('keeps line totals, subtotal and total consistent when a quantity goes up or down', () => {
    const { world } = setup();
    const order = studentOrder(world);
    const item = firstItem(order);
    const up = world.setItemQuantity(order.uuid, item.uuid, item.quantity + 2);
    expect(totalsProblems(up)).toEqual([]);
    expect(Number(up.subtotal.amount)).toBeGreaterThan(Number(order.subtotal.amount));
    const down = world.setItemQuantity(order.uuid, item.uuid, 1);
    expect(totalsProblems(down)).toEqual([]);
    expect(down.items.find((line) => line.uuid === item.uuid)?.quantity).toBe(1);
    expect(OrderSchema.safeParse(down).success).toBe(true);
  });

  it("adds a pending, unfulfilled line of a catalog product at the price the customer's class pays", () => {
    const { world } = setup();
    // Classes 5 and 6 pay the menus' reduced price: 3.50 rather than 4.50.
    const customer = world.customers().find((candidate) => /^[56]/.test(candidate.class ?? ''));
    if (!customer) throw new Error('no student of a younger class in the catalog');
    const order = world.addOrder({ customer });
    const sku = order.items.some((line) => line.sku === 'MENU-VEG') ? 'MENU-DAY' : 'MENU-VEG';
    const after = world.addItem(
      order.uuid,
      { sku, quantity: 2, notes: 'Cut in small pieces.' },
      { atMs: T0 + MINUTE },
    );
    expect(after.items).toHaveLength(order.items.length + 1);
    expect(after.items.at(-1)).toMatchObject({
      sku,
      quantity: 2,
      price: { amount: '3.50', formatted: '€3.50' },
      total: { amount: '7.00' },
      notes: 'Cut in small pieces.',
      status: { value: 'pending' },
      fulfillment_status: 'unfulfilled',
      fulfilled_quantity: 0,
      created_at: after.updated_at,
    });
    expect(Number(after.subtotal.amount)).toBeCloseTo(Number(order.subtotal.amount) + 7, 2);
    expect(totalsProblems(after)).toEqual([]);
    expect(OrderSchema.safeParse(after).success).toBe(true);
  });

  it('removes a line and refuses to remove the last one, so an order never has no items', () => {
    const { world } = setup();
    const order = studentOrder(world);
    const withTwo =
      order.items.length > 1 ? order : world.addItem(order.uuid, { sku: 'WATER' }, { atMs: T0 + MINUTE });
    let current = withTwo;
    while (current.items.length > 1) {
      current = world.removeItem(order.uuid, firstItem(current).uuid);
      expect(totalsProblems(current)).toEqual([]);
    }
    expect(() => world.removeItem(order.uuid, firstItem(current).uuid)).toThrow(/at least one/);
    expect(world.getOrder(order.uuid)?.items).toHaveLength(1);
  });

  it('bumps updated_at on every edit, even several within one millisecond, and not for a call that changes nothing', () => {
    const { world } = setup();
    const order = studentOrder(world);
    const item = firstItem(order);
    const stamps = [
      order.updated_at,
      world.setItemQuantity(order.uuid, item.uuid, item.quantity + 1).updated_at,
      world.addItem(order.uuid, { sku: 'FRUIT' }).updated_at,
      world.setItemNotes(order.uuid, item.uuid, 'Sem lactose.').updated_at,
      world.setNotes(order.uuid, 'Halal, please.').updated_at,
    ];
    expect(new Set(stamps).size).toBe(stamps.length);
    expect(stamps).toEqual([...stamps].sort());
    expect(world.setItemNotes(order.uuid, item.uuid, 'Sem lactose.').updated_at).toBe(stamps.at(-1));
    expect(world.setItemQuantity(order.uuid, item.uuid, item.quantity + 1).updated_at).toBe(stamps.at(-1));
    expect(parseTimestamp(stamps.at(-1) ?? '')).toBeGreaterThan(parseTimestamp(order.created_at));
  });

  it('records each edit of the lines as one items change, from and to as SKU×quantity', () => {
    const { world, changes } = setup();
    const order = world.addOrder({ pickupDate: '2026-03-11' });
    const item = firstItem(order);
    const before = order.items.map((line) => `${line.sku}×${line.quantity}`).join(', ');
    changes.length = 0;
    const after = world.setItemQuantity(order.uuid, item.uuid, item.quantity + 1, { atMs: T0 + MINUTE });
    expect(changes).toEqual([
      {
        at: T0 + MINUTE,
        orderUuid: order.uuid,
        kind: 'items',
        from: before,
        to: after.items.map((line) => `${line.sku}×${line.quantity}`).join(', '),
        pickupDate: '2026-03-11',
        establishmentUuid: order.establishment.uuid,
      },
    ]);
    expect(changes[0]?.to).toContain(`${item.sku}×${item.quantity + 1}`);
  });

  it("records an item's notes added, changed and cleared, naming the item", () => {
    const { world, changes } = setup();
    const order = world.addOrder();
    const item = firstItem(order);
    world.setItemNotes(order.uuid, item.uuid, null);
    changes.length = 0;
    world.setItemNotes(order.uuid, item.uuid, 'Nut allergy: nothing with nuts.', { atMs: T0 + MINUTE });
    world.setItemNotes(order.uuid, item.uuid, 'No sesame seeds.', { atMs: T0 + 2 * MINUTE });
    world.setItemNotes(order.uuid, item.uuid, null, { atMs: T0 + 3 * MINUTE });
    expect(changes.map(({ kind, from, to, itemUuid }) => ({ kind, from, to, itemUuid }))).toEqual([
      { kind: 'item_notes', from: null, to: 'Nut allergy: nothing with nuts.', itemUuid: item.uuid },
      {
        kind: 'item_notes',
        from: 'Nut allergy: nothing with nuts.',
        to: 'No sesame seeds.',
        itemUuid: item.uuid,
      },
      { kind: 'item_notes', from: 'No sesame seeds.', to: null, itemUuid: item.uuid },
    ]);
  });

  it('refuses a quantity below one, an unknown item and an unknown product', () => {
    const { world } = setup();
    const order = world.addOrder();
    const item = firstItem(order);
    expect(() => world.setItemQuantity(order.uuid, item.uuid, 0)).toThrow(RangeError);
    expect(() => world.setItemQuantity(order.uuid, item.uuid, 1.5)).toThrow(RangeError);
    expect(() => world.setItemNotes(order.uuid, 'no-such-item', 'x')).toThrow(/no item/);
    expect(() => world.addItem(order.uuid, { sku: 'CAVIAR' })).toThrow(/no product/);
    expect(world.getOrder(order.uuid)).toEqual(order);
  });

  it('gives a line added to a completed order the fulfilment of its other lines', () => {
    const { world } = setup();
    const order = world.addOrder();
    world.setStatus(order.uuid, 'completed');
    const after = world.addItem(order.uuid, { sku: 'JUICE', quantity: 2 });
    expect(after.items.at(-1)).toMatchObject({
      status: { value: 'completed' },
      fulfillment_status: 'fulfilled',
      fulfilled_quantity: 2,
    });
  });

  it("draws a new line's uuid from a stream of its own, so the orders that follow are the same", () => {
    const edited = setup();
    const plain = setup();
    const first = edited.world.addOrder();
    plain.world.addOrder();
    edited.world.addItem(first.uuid, { sku: 'WATER' });
    expect(edited.world.addOrder()).toEqual(plain.world.addOrder());
  });
});
