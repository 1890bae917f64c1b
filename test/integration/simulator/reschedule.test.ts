// A reschedule made through the world API, as the API serves it: the order's new pickup date and
// establishment, its status kept, and an `updated_at` that moved on, so a poller sees the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { call, T0, TODAY } from './simulatorHttp.js';

let sim: RunningSimulator;
const clock = { now: T0 };

beforeAll(async () => {
  sim = await startSimulator({ clock: () => clock.now, scenario: false, pickupFormat: 'iso' });
});

afterAll(async () => {
  await sim.close();
});

describe('a rescheduled order over HTTP', () => {
  it('is listed at its new day and establishment with a new updated_at, and counted there as pending', async () => {
    const [main, cafe] = sim.world.establishments();
    const order = sim.world.addOrder({ establishment: main?.uuid, pickupDate: TODAY });
    clock.now = T0 + 60_000;
    sim.world.reschedule(order.uuid, { pickupDate: addDays(TODAY, 1), establishment: cafe?.uuid });

    const listing = await call(sim, '/orders', {
      query: { start_date: addDays(TODAY, 1), end_date: addDays(TODAY, 1), establishment: cafe?.uuid ?? '' },
    });
    expect(listing.status).toBe(200);
    const served = (listing.body.data as Array<Record<string, unknown>>).find(
      (candidate) => candidate.uuid === order.uuid,
    );
    expect(served).toMatchObject({
      pickup_at: addDays(TODAY, 1),
      establishment: { uuid: cafe?.uuid, name: cafe?.name },
      status: { value: 'pending' },
    });
    expect(String(served?.updated_at) > order.updated_at).toBe(true);
    expect(sim.world.pendingOrders(cafe?.uuid ?? '', addDays(TODAY, 1)).map((o) => o.uuid)).toContain(
      order.uuid,
    );
    expect(sim.world.pendingOrders(main?.uuid ?? '', TODAY).map((o) => o.uuid)).not.toContain(order.uuid);
  });
});
