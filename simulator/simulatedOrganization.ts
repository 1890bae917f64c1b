// One organization of the simulated service: its world, filled with the orders it starts with, and the
// scenario that moves it.
import { addInitialOrders } from './initialOrders.js';
import { addOrderMix, type OrderMix } from './orderMix.js';
import type { EstablishmentScheduleOverride } from './organizationCatalog.js';
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
  /** Default all of the catalog's establishments. */
  establishments?: number;
  /** The world's working days and closing times, per establishment. */
  schedules?: ReadonlyArray<EstablishmentScheduleOverride | undefined>;
  /** The first establishment closes this many seconds after the start, working that day. */
  closingInSeconds?: number;
  /** A count gives the demo's mix of orders; a mix sets how many of each status, and over which days. */
  initialOrders: number | OrderMix;
  scenario: ScenarioOptions | false;
}

export function createSimulatedOrganization(setup: OrganizationSetup): SimulatedOrganization {
  const world = new World({
    organization: setup.organization,
    rng: setup.rng.fork('world'),
    clock: setup.clock,
    timeZone: setup.timeZone,
    establishments: setup.establishments,
    schedules: setup.schedules,
    closingInSeconds: setup.closingInSeconds,
  });
  const rng = setup.rng.fork('initial-orders');
  if (typeof setup.initialOrders === 'number') addInitialOrders(world, rng, setup.initialOrders);
  else addOrderMix(world, rng, setup.initialOrders);
  const scenario = new Scenario(world, setup.rng.fork('scenario'), setup.scenario, setup.clock());
  return { ...setup.organization, world, scenario };
}
