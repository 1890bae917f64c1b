import { afterEach, describe, expect, it } from 'vitest';
import { type Order, OrderSchema } from '../../../shared/api/schemas.js';
import { zonedInstant } from '../../../shared/time/zonedTime.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { call, T0, TODAY } from './simulatorHttp.js';

const MINUTE = 60_000;
const running: RunningSimulator[] = [];

async function start(seed: number, clock: () => number): Promise<RunningSimulator> {
  const sim = await startSimulator({ seed, clock, pickupFormat: 'iso', requestsPerMinute: 1000 });
  running.push(sim);
  return sim;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

const WEEK = { status: 'pending', start_date: '2026-03-09', end_date: '2026-03-16' };

describe('simulator scenario over HTTP', () => {
  it('answers identically for the same seed and clock, and differently for another seed', async () => {
    let now = T0;
    const a = await start(11, () => now);
    const b = await start(11, () => now);
    const c = await start(12, () => now);
    expect(a.organization).toEqual(b.organization);
    expect(a.token).toBe(b.token);
    for (const at of [T0, T0 + 5 * MINUTE, T0 + 45 * MINUTE]) {
      now = at;
      const [bodyA, bodyB, bodyC] = await Promise.all(
        [a, b, c].map(async (sim) => (await call(sim, '/orders', { query: WEEK })).body),
      );
      expect(bodyB.data).toEqual(bodyA.data);
      expect(bodyC.data).not.toEqual(bodyA.data);
    }
  });

  it('shows new orders arriving and pending ones being completed or canceled as the clock moves', async () => {
    let now = T0;
    const sim = await start(3, () => now);
    const before = (await call(sim, '/orders', { query: WEEK })).body;
    const pendingBefore = new Set<string>(before.data.map((order: { uuid: string }) => order.uuid));

    // The demo world's orders wait up to 60 min (1.5 × its typical 40) to be resolved.
    now = T0 + 61 * MINUTE;
    const after = (await call(sim, '/orders', { query: WEEK })).body;
    const arrived = after.data.filter((order: { uuid: string }) => !pendingBefore.has(order.uuid));
    expect(arrived.length).toBeGreaterThan(10);
    for (const order of arrived) expect(OrderSchema.safeParse(order).success).toBe(true);
    // Each establishment still taking today's orders keeps one of them pending until its closing, for a
    // parent's edit after it (the demo world's late edits); every other order pending before is resolved.
    const stillPending = after.data.filter((order: { uuid: string }) => pendingBefore.has(order.uuid));
    const open = sim.world
      .establishments()
      .filter(
        (establishment) => zonedInstant(TODAY, establishment.order_closing_time, sim.world.timeZone) > now,
      );
    expect(stillPending.length).toBeLessThanOrEqual(open.length);
    for (const order of stillPending) {
      expect(order.pickup_at).toBe(TODAY);
      expect(open.map((establishment) => establishment.uuid)).toContain(order.establishment.uuid);
    }
    expect(new Set(stillPending.map((order: Order) => order.establishment.uuid)).size).toBe(
      stillPending.length,
    );

    const statuses = new Set([...pendingBefore].map((uuid) => sim.world.getOrder(uuid)?.status.value));
    expect(statuses.has('completed') || statuses.has('archived')).toBe(true);
  });

  it('keeps the scenario of the second organization running too', async () => {
    let now = T0;
    const sim = await start(4, () => now);
    const [, second] = sim.organizations;
    if (!second) throw new Error('no second organization');
    const before = second.world.orderCount;
    now = T0 + 30 * MINUTE;
    expect(second.world.orderCount).toBeGreaterThan(before);
  });
});
