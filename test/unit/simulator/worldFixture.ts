// Builds a world outside any server, on a fixed clock, for unit tests of the world and the scenario.
import { addInitialOrders } from '../../../simulator/initialOrders.js';
import { Scenario, type ScenarioOptions } from '../../../simulator/scenario.js';
import { SeededRandom } from '../../../simulator/seededRandom.js';
import { World, type WorldOptions } from '../../../simulator/world.js';

/** Tuesday 10 March 2026, 11:00 in Lisbon (UTC+0 in winter). */
export const T0 = Date.UTC(2026, 2, 10, 11, 0, 0);
export const TODAY = '2026-03-10';

export interface WorldFixture {
  world: World;
  scenario: Scenario;
  clock: { now: number };
}

export function worldFixture(
  options: {
    seed?: number;
    initialOrders?: number;
    scenario?: ScenarioOptions | false;
    /** Default T0. */
    start?: number;
    /** The establishments' hours, as a world preset or a test sets them. */
    hours?: Pick<WorldOptions, 'schedules' | 'closingInSeconds'>;
  } = {},
): WorldFixture {
  const clock = { now: options.start ?? T0 };
  const rng = new SeededRandom(options.seed ?? 42);
  const world = new World({
    organization: { id: '6f1c1f0e-6a55-4b9f-9d51-2f3b8c1d0a11', name: 'North School' },
    rng: rng.fork('world'),
    clock: () => clock.now,
    timeZone: 'Europe/Lisbon',
    ...options.hours,
  });
  addInitialOrders(world, rng.fork('initial'), options.initialOrders ?? 60);
  const scenario = new Scenario(world, rng.fork('scenario'), options.scenario ?? false, clock.now);
  return { world, scenario, clock };
}
