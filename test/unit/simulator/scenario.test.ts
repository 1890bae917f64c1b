import { describe, expect, it } from 'vitest';
import { OrderSchema } from '../../../shared/api/schemas.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import type { WorldChange } from '../../../simulator/worldChange.js';
import { T0, TODAY, worldFixture } from './worldFixture.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('Scenario', () => {
  it('with the scenario off, leaves the world unchanged however far the clock moves', () => {
    const { world, clock } = worldFixture({ scenario: false });
    const before = world.listOrders();
    clock.now = T0 + 48 * HOUR;
    expect(world.listOrders()).toEqual(before);
  });

  it('builds the same world from the same seed and clock, and another from another seed', () => {
    const a = worldFixture({ seed: 7, scenario: {} });
    const b = worldFixture({ seed: 7, scenario: {} });
    const c = worldFixture({ seed: 8, scenario: {} });
    for (const fixture of [a, b, c]) fixture.clock.now = T0 + 3 * HOUR;
    expect(b.world.listOrders()).toEqual(a.world.listOrders());
    expect(c.world.listOrders()).not.toEqual(a.world.listOrders());
  });

  it('gives the same world whether the clock is read often or once', () => {
    const stepwise = worldFixture({ seed: 3, scenario: { speed: 5 } });
    const jump = worldFixture({ seed: 3, scenario: { speed: 5 } });
    for (let t = T0; t <= T0 + 2 * HOUR; t += 7 * MINUTE) {
      stepwise.clock.now = t;
      stepwise.world.listOrders();
    }
    stepwise.clock.now = T0 + 2 * HOUR;
    jump.clock.now = T0 + 2 * HOUR;
    expect(jump.world.listOrders()).toEqual(stepwise.world.listOrders());
  });

  it('brings new pending orders over time, for pickup today up to three days ahead', () => {
    const { world, clock } = worldFixture({ scenario: {} });
    const initial = new Set(world.listOrders().map((order) => order.uuid));
    clock.now = T0 + 30 * MINUTE;
    const arrivals = world.listOrders().filter((order) => !initial.has(order.uuid));
    expect(arrivals.length).toBeGreaterThan(10);
    expect(arrivals.length).toBeLessThan(60);
    for (const order of arrivals) {
      expect(OrderSchema.safeParse(order).success).toBe(true);
      expect(order.created_at >= '2026-03-10T11:00:00').toBe(true);
      expect(order.pickup_at >= TODAY && order.pickup_at <= addDays(TODAY, 3)).toBe(true);
    }
    expect(new Set(arrivals.map((order) => order.pickup_at)).size).toBeGreaterThan(1);
  });

  it('resolves every pending order to completed or canceled, then archives it', () => {
    const { world, clock } = worldFixture({ scenario: {} });
    const pending = world.listOrders().filter((order) => order.status.value === 'pending');
    clock.now = T0 + 31 * MINUTE;
    const resolved = pending.map((order) => world.getOrder(order.uuid));
    const statuses = resolved.map((order) => order?.status.value);
    // One resolved in the first minute may already be archived (30 to 90 min later).
    expect(statuses.every((status) => status !== 'pending')).toBe(true);
    expect(statuses).toContain('completed');
    expect(statuses).toContain('canceled');
    for (const order of resolved) {
      expect(order?.completed_at ?? order?.canceled_at).toMatch(/^2026-03-10T11:/);
    }

    clock.now = T0 + 3 * HOUR;
    for (const order of pending) {
      const now = world.getOrder(order.uuid);
      expect(now?.status.value).toBe('archived');
      expect(now?.completed_at ?? now?.canceled_at).not.toBeNull();
    }
  });

  it('starts as if it had been running: orders already pending resolve from the first minute, not in a wave', () => {
    const { world, clock } = worldFixture({ scenario: {} });
    const pending = new Set(
      world.listOrders((order) => order.status.value === 'pending').map((order) => order.uuid),
    );
    const resolvedAt: number[] = [];
    world.onChange((change) => {
      if (change.kind === 'status' && change.from === 'pending' && pending.has(change.orderUuid))
        resolvedAt.push(change.at - T0);
    });
    clock.now = T0 + 31 * MINUTE;
    world.listOrders();

    // Fresh waits of 10 to 30 min would resolve none in the first 10 min, then all of them in 20.
    const perTenMinutes = [0, 1, 2].map(
      (slot) => resolvedAt.filter((at) => at >= slot * 10 * MINUTE && at < (slot + 1) * 10 * MINUTE).length,
    );
    expect(resolvedAt).toHaveLength(pending.size);
    expect(perTenMinutes[0]).toBeGreaterThan(pending.size / 3);
    expect(resolvedAt.filter((at) => at < MINUTE).length).toBeGreaterThan(0);
    expect(perTenMinutes[0]).toBeGreaterThan(perTenMinutes[1] ?? 0);
    expect(perTenMinutes[1]).toBeGreaterThan(perTenMinutes[2] ?? 0);
  });

  it('never leaves a gap between new orders longer than orderGapCap mean gaps', () => {
    const gaps = (orderGapCap: number | undefined) => {
      const { world, clock } = worldFixture({ seed: 4, scenario: { orderGapCap } });
      const created: number[] = [T0];
      world.onChange((change) => {
        if (change.kind === 'created') created.push(change.at);
      });
      clock.now = T0 + 6 * HOUR;
      world.listOrders();
      return created.slice(1).map((at, index) => at - (created[index] ?? T0));
    };
    expect(Math.max(...gaps(2))).toBeLessThanOrEqual(2 * MINUTE);
    // The default allows five: the cap is what keeps a demo from going quiet.
    expect(Math.max(...gaps(undefined))).toBeGreaterThan(2 * MINUTE);
    expect(Math.max(...gaps(undefined))).toBeLessThanOrEqual(5 * MINUTE);
  });

  it('runs faster with a higher speed', () => {
    const slow = worldFixture({ scenario: { speed: 1 } });
    const fast = worldFixture({ scenario: { speed: 10 } });
    slow.clock.now = T0 + HOUR;
    fast.clock.now = T0 + HOUR;
    const arrived = (fixture: typeof slow) => fixture.world.orderCount - 60;
    expect(arrived(fast)).toBeGreaterThan(5 * arrived(slow));
  });

  it('lets a change made through the world API win over the script', () => {
    const { world, clock, scenario } = worldFixture({ scenario: {} });
    const order = world.listOrders().find((candidate) => candidate.status.value === 'pending');
    if (!order) throw new Error('no pending order');
    world.setStatus(order.uuid, 'canceled');
    world.setNotes(order.uuid, 'kept by the test');
    clock.now = T0 + 10 * HOUR;
    expect(world.getOrder(order.uuid)).toMatchObject({
      status: { value: 'canceled' },
      notes: 'kept by the test',
    });
    expect(scenario.appliedCount).toBeGreaterThan(0);
  });

  it('applies events lazily, one step per event, and reports what is still scheduled', () => {
    const { scenario, world } = worldFixture({ scenario: {} });
    const next = scenario.nextEventAt();
    expect(next).toBeGreaterThan(T0);
    expect(scenario.advanceTo(T0)).toBe(0);
    const pending = scenario.pendingEvents;
    expect(scenario.advanceTo((next ?? T0) - 1)).toBe(0);
    expect(scenario.advanceTo(next ?? T0)).toBeGreaterThanOrEqual(1);
    expect(scenario.time).toBe(next);
    expect(scenario.pendingEvents).toBeGreaterThanOrEqual(pending - 1);
    expect(world.orderCount).toBeGreaterThanOrEqual(60);
  });

  it('resolves and archives random orders at steady per-minute rates, however large the pending pool', () => {
    const steady = { orderIntervalMs: 20_000, resolvePerMinute: 2.5, archivePerMinute: 2 };
    const { world, clock } = worldFixture({ initialOrders: 300, scenario: steady });
    const pendingAtStart = world.listOrders((order) => order.status.value === 'pending').length;
    const changes: WorldChange[] = [];
    world.onChange((change) => changes.push(change));
    clock.now = T0 + HOUR;
    world.listOrders();

    const count = (kind: string, to: string) =>
      changes.filter((change) => change.kind === kind && change.to === to).length;
    const resolved = count('status', 'completed') + count('status', 'canceled');
    expect(count('created', 'pending')).toBeGreaterThan(120);
    expect(count('created', 'pending')).toBeLessThan(240);
    expect(resolved).toBeGreaterThan(110);
    expect(resolved).toBeLessThan(190);
    expect(count('status', 'canceled')).toBeGreaterThan(10);
    expect(count('status', 'canceled')).toBeLessThan(count('status', 'completed') / 2);
    expect(count('status', 'archived')).toBeGreaterThan(80);
    expect(count('status', 'archived')).toBeLessThan(160);
    // Per-order delays would have resolved every initial pending order within the hour.
    expect(pendingAtStart).toBeGreaterThan(200);
    expect(world.listOrders((order) => order.status.value === 'pending').length).toBeGreaterThan(150);
    const minutes = new Set(changes.map((change) => Math.floor((change.at - T0) / MINUTE)));
    expect(minutes.size).toBeGreaterThan(50);
  });

  it('replays the same steady-rate world for the same seed', () => {
    const steady = { resolvePerMinute: 1, archivePerMinute: 1 };
    const a = worldFixture({ seed: 9, scenario: steady });
    const b = worldFixture({ seed: 9, scenario: steady });
    a.clock.now = T0 + 2 * HOUR;
    b.clock.now = T0 + 2 * HOUR;
    expect(b.world.listOrders()).toEqual(a.world.listOrders());
  });

  it('refuses options that cannot run', () => {
    expect(() => worldFixture({ scenario: { speed: 0 } })).toThrow(RangeError);
    expect(() => worldFixture({ scenario: { cancelRate: 1.5 } })).toThrow(RangeError);
    expect(() => worldFixture({ scenario: { resolvePerMinute: 0 } })).toThrow(RangeError);
    expect(() => worldFixture({ scenario: { archivePerMinute: -1 } })).toThrow(RangeError);
    expect(() => worldFixture({ scenario: { orderGapCap: 0.5 } })).toThrow(RangeError);
  });
});
