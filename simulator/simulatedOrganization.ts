// One organization of the simulated service: its world, filled with the orders it starts with, and the
// scenario that moves it.
import { addInitialOrders } from './initialOrders.js';
import { Scenario, type ScenarioOptions } from './scenario.js';
import type { SeededRandom } from './seededRandom.js';
import { type Organization, World } from './world.js';

export interface SimulatedOrganization extends Organization {
  world: World;
  scenario: Scenario;
}

export interface OrganizationSetup {
  organization: Organization;
  rng: SeededRandom;
  clock: () => number;
  timeZone: string;
  initialOrders: number;
  scenario: ScenarioOptions | false;
}

export function createSimulatedOrganization(setup: OrganizationSetup): SimulatedOrganization {
  const world = new World({
    organization: setup.organization,
    rng: setup.rng.fork('world'),
    clock: setup.clock,
    timeZone: setup.timeZone,
  });
  addInitialOrders(world, setup.rng.fork('initial-orders'), setup.initialOrders);
  const scenario = new Scenario(world, setup.rng.fork('scenario'), setup.scenario, setup.clock());
  return { ...setup.organization, world, scenario };
}
