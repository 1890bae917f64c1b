// `orders` and `establishments` as a real process end their listing with a count whose noun agrees with
// it: "1 canceled order", never "1 canceled orders".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { runCli } from '../support/runCli.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ seed: 8, scenario: false, initialOrders: 0 });
});

afterAll(async () => {
  await sim.close();
});

describe('meal-notifier orders', () => {
  it('says "1 canceled order" and "1 page" for a listing of one', async () => {
    // Alone on its pickup date, so the listing holds exactly this one.
    const day = addDays(sim.world.today(), 20);
    const order = sim.world.addOrder({ pickupDate: day });
    sim.world.setStatus(order.uuid, 'canceled');

    const result = await runCli(['orders', '--status', 'canceled', '--from', day, '--to', day], {
      MEAL_API_BASE_URL: sim.baseUrl,
      MEAL_API_ORGANIZATION: sim.organization.id,
      MEAL_API_TOKEN: sim.token,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(order.reference);
    expect(result.stdout).toMatch(
      new RegExp(`^1 canceled order with pickup ${day} to ${day} \\(1 page\\)$`, 'm'),
    );
  });
});
