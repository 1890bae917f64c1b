// Starts the Admin API simulator on 127.0.0.1 and hands back everything a test or the CLI needs to
// drive it: the address and credentials, each organization's world and scenario, the faults, the log.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidTimeZone } from '../shared/time/calendarDate.js';
import { AccessControl, type TokenGrant } from './accessControl.js';
import { FaultInjector, type FaultSettings } from './faults.js';
import { type OrderMix, scaleOrderMix } from './orderMix.js';
import { PICKUP_FORMATS, PickupDateWriter, type PickupFormat } from './pickupFormat.js';
import { SlidingWindowRateLimiter } from './rateLimiter.js';
import { API_PREFIX, createRequestHandler } from './requestHandler.js';
import { RequestLog } from './requestLog.js';
import { ORDERS_SHAPES, type OrdersShape } from './routes/orders.js';
import type { Scenario, ScenarioOptions } from './scenario.js';
import { SeededRandom } from './seededRandom.js';
import { createSimulatedOrganization, type SimulatedOrganization } from './simulatedOrganization.js';
import type { Organization, World } from './world.js';
import { type NotifierSettings, type WorldName, type WorldPreset, worldPreset } from './worldPresets.js';

export interface OrganizationSpec {
  /** Default: a uuid drawn from the seed. */
  id?: string;
  name: string;
  /**
   * Default: the simulator's `initialOrders`; in a world with a set mix of statuses, that mix scaled to
   * this total.
   */
  initialOrders?: number;
}

export interface TokenSpec {
  token: string;
  /** Organizations the token may read, by id or by name. */
  organizations: string[];
}

export interface SimulatorOptions {
  /**
   * The named world to serve (see `worldPresets.ts`): its organizations, orders, scenario and tokens.
   * Default `demo`. The options below, when given, override the world's own.
   */
  world?: WorldName;
  /** Default 0: any free port. */
  port?: number;
  /** Default 42. */
  seed?: number;
  /** Milliseconds since the epoch; default `Date.now`. Drives the rate-limit window, "today" and the scenario. */
  clock?: () => number;
  /** How latency is waited out; default a real timer. */
  delay?: (ms: number) => Promise<void>;
  /** IANA zone that defines "today"; default the world's, Europe/Lisbon. */
  timeZone?: string;
  /** Per token, over a sliding minute; default 50. */
  requestsPerMinute?: number;
  /** Form of `pickup_at`; default `mixed`. */
  pickupFormat?: PickupFormat;
  /** `bare` answers GET /orders with a plain array, the old form; default `envelope`. */
  ordersShape?: OrdersShape;
  /**
   * How the world moves on its own, over the world's own scenario (`{ speed: 60 }` speeds it up); `false`
   * for a world that only changes through the world API.
   */
  scenario?: ScenarioOptions | false;
  faults?: Partial<FaultSettings>;
  /**
   * Orders each organization starts with; default the world's (60 in the demo). In a world with a set
   * mix of statuses, that mix scaled to this total.
   */
  initialOrders?: number;
  /** Default: the world's ("North School" and "South Academy" in the demo). */
  organizations?: OrganizationSpec[];
  /** Establishments per organization, a prefix of the catalog's; default the world's. */
  establishments?: number;
  /**
   * Each organization's first establishment closes its orders this many seconds after the start (to the
   * second, in the simulator's time zone) and works that day: a closing within reach of a test or the
   * demo. Default: every establishment keeps the world's hours.
   */
  closingInSeconds?: number;
  /** Default: the world's: one token per organization, each reading only its own, or one reading all. */
  tokens?: TokenSpec[];
}

export interface RunningSimulator {
  /** `http://127.0.0.1:PORT/api/v1/admin`. */
  baseUrl: string;
  port: number;
  seed: number;
  /** The first organization, readable with `token`. */
  organization: Organization;
  token: string;
  organizations: SimulatedOrganization[];
  /** The first organization's world and scenario. */
  world: World;
  scenario: Scenario;
  access: AccessControl;
  faults: FaultInjector;
  requestLog: RequestLog;
  requestsPerMinute: number;
  /** The named world this simulator serves. */
  preset: WorldPreset;
  /** The notifier settings that watch this world as intended, in the simulator's time zone. */
  notifier: NotifierSettings;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_REQUESTS_PER_MINUTE = 50;
const HOST = '127.0.0.1';

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const preset = worldPreset(options.world ?? 'demo');
  const seed = options.seed ?? DEFAULT_SEED;
  const port = options.port ?? 0;
  const timeZone = options.timeZone ?? preset.notifier.timeZone;
  const pickupFormat = options.pickupFormat ?? 'mixed';
  const ordersShape = options.ordersShape ?? 'envelope';
  const requestsPerMinute = options.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE;
  checkOptions({ seed, port, timeZone, pickupFormat, ordersShape, initialOrders: options.initialOrders });
  const clock = options.clock ?? Date.now;
  const rng = new SeededRandom(seed);
  const scenario = options.scenario === false ? false : overScenario(preset.scenario, options.scenario);

  const specs = options.organizations ?? preset.organizations;
  if (specs.length === 0) throw new RangeError('the simulator needs at least one organization');
  const organizations = specs.map((spec: OrganizationSpec, index) =>
    createSimulatedOrganization({
      organization: { id: spec.id ?? rng.fork(`organization/${index}`).uuid(), name: spec.name },
      rng: rng.fork(`organization/${index}/data`),
      clock,
      timeZone,
      establishments: options.establishments ?? preset.establishments,
      schedules: preset.schedules,
      closingInSeconds: options.closingInSeconds,
      initialOrders: initialOrdersOf(preset, spec.initialOrders ?? options.initialOrders),
      scenario,
    }),
  );
  const byId = new Map(organizations.map((organization) => [organization.id, organization]));
  if (byId.size !== organizations.length) throw new RangeError('organization ids must be unique');
  const tokens =
    options.tokens ??
    (preset.tokens === 'shared' ? sharedToken(rng, organizations) : defaultTokens(rng, organizations));
  const grants = resolveGrants(tokens, organizations);
  const [first] = organizations;
  const [firstGrant] = grants;
  if (!first || !firstGrant) throw new RangeError('the simulator needs at least one token');

  const access = new AccessControl(grants);
  const faults = new FaultInjector(rng.fork('faults'), options.faults);
  const requestLog = new RequestLog();
  const server: Server = createServer(
    createRequestHandler({
      clock,
      delay: options.delay ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      listenHost: (): string => `${HOST}:${(server.address() as AddressInfo | null)?.port ?? port}`,
      organizations: byId,
      access,
      rateLimiter: new SlidingWindowRateLimiter(requestsPerMinute),
      faults,
      requestLog,
      pickupDates: new PickupDateWriter(pickupFormat),
      ordersShape,
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const boundPort = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://${HOST}:${boundPort}${API_PREFIX}`,
    port: boundPort,
    seed,
    organization: { id: first.id, name: first.name },
    token: firstGrant.token,
    organizations,
    world: first.world,
    scenario: first.scenario,
    access,
    faults,
    requestLog,
    requestsPerMinute,
    preset,
    notifier: { window: { ...preset.notifier.window }, timeZone },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** One token per organization, each reading only its own: the second organization answers 403 to the first token. */
function defaultTokens(rng: SeededRandom, organizations: SimulatedOrganization[]): TokenSpec[] {
  return organizations.map((organization, index) => ({
    token: `sim_${rng.fork(`token/${index}`).hex(40)}`,
    organizations: [organization.id],
  }));
}

/** One token that reads every organization, so that they all draw on one request budget. */
function sharedToken(rng: SeededRandom, organizations: SimulatedOrganization[]): TokenSpec[] {
  return [
    {
      token: `sim_${rng.fork('token/shared').hex(40)}`,
      organizations: organizations.map((organization) => organization.id),
    },
  ];
}

/** The world's scenario with the caller's settings on top; a setting left undefined keeps the world's. */
function overScenario(base: ScenarioOptions, overrides: ScenarioOptions = {}): ScenarioOptions {
  const given = Object.entries(overrides).filter(([, value]) => value !== undefined);
  return { ...base, ...Object.fromEntries(given) };
}

function initialOrdersOf(preset: WorldPreset, count: number | undefined): number | OrderMix {
  if (count === undefined) return preset.initialOrders;
  return typeof preset.initialOrders === 'number' ? count : scaleOrderMix(preset.initialOrders, count);
}

function resolveGrants(tokens: TokenSpec[], organizations: SimulatedOrganization[]): TokenGrant[] {
  return tokens.map((spec) => ({
    token: spec.token,
    organizations: spec.organizations.map((reference) => {
      const organization = organizations.find(
        (candidate) => candidate.id === reference || candidate.name === reference,
      );
      if (!organization) throw new RangeError(`token grant names an unknown organization: ${reference}`);
      return organization.id;
    }),
  }));
}

function checkOptions(options: {
  seed: number;
  port: number;
  timeZone: string;
  pickupFormat: string;
  ordersShape: string;
  initialOrders: number | undefined;
}): void {
  if (!Number.isSafeInteger(options.seed))
    throw new RangeError(`seed must be an integer, got ${options.seed}`);
  if (!(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535)) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${options.port}`);
  }
  if (!isValidTimeZone(options.timeZone)) throw new RangeError(`unknown time zone: ${options.timeZone}`);
  if (!(PICKUP_FORMATS as readonly string[]).includes(options.pickupFormat)) {
    throw new RangeError(
      `pickupFormat must be one of ${PICKUP_FORMATS.join(', ')}, got ${options.pickupFormat}`,
    );
  }
  if (!(ORDERS_SHAPES as readonly string[]).includes(options.ordersShape)) {
    throw new RangeError(
      `ordersShape must be one of ${ORDERS_SHAPES.join(', ')}, got ${options.ordersShape}`,
    );
  }
  const { initialOrders } = options;
  if (initialOrders !== undefined && !(Number.isInteger(initialOrders) && initialOrders >= 0)) {
    throw new RangeError(`initialOrders must be an integer >= 0, got ${options.initialOrders}`);
  }
}
