// Named simulator worlds that benchmarks and users start by name: who is in them, what orders they hold,
// how they move, which tokens read them, and the notifier settings that watch them as intended.
import { ESTABLISHMENTS } from './catalog.js';
import type { OrderMix } from './orderMix.js';
import type { EstablishmentScheduleOverride } from './organizationCatalog.js';
import type { ScenarioOptions } from './scenario.js';

export const WORLD_NAMES = ['demo', 'canteen-afternoon', 'shared-token'] as const;
export type WorldName = (typeof WORLD_NAMES)[number];

/** What a notifier config should say to watch the world as it is meant to be watched. */
export interface NotifierSettings {
  window: { daysBack: number; daysAhead: number };
  timeZone: string;
}

export interface WorldPreset {
  name: WorldName;
  /** One line for people: what the world holds and what it is for. */
  summary: string;
  organizations: ReadonlyArray<{ name: string }>;
  /** Establishments per organization, a prefix of the catalog's templates; default all of them. */
  establishments?: number;
  /**
   * The world's working days and closing times, per establishment in the catalog's order; default the
   * catalog's (school days, the café also on Saturdays; closings from 09:00 to 17:00). The scenario follows
   * them: today's orders only before a closing, a few late changes after it, closed days quiet.
   */
  schedules?: ReadonlyArray<EstablishmentScheduleOverride | undefined>;
  /** A count gives the demo's mix (mostly today's pending orders); a mix sets each status's count. */
  initialOrders: number | OrderMix;
  scenario: ScenarioOptions;
  /** `shared`: one token reads every organization; otherwise one token per organization. */
  tokens: 'per-organization' | 'shared';
  /** The CLI's `--speed` when none is given: the demo runs fast so something happens within seconds. */
  cliSpeed: number;
  notifier: NotifierSettings;
}

const TIME_ZONE = 'Europe/Lisbon';
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
const WEEK_AROUND_TODAY = { daysBack: 3, daysAhead: 3 };

const DEMO: WorldPreset = {
  name: 'demo',
  summary: 'two schools, 60 orders each (mostly pending today), one token each',
  organizations: [{ name: 'North School' }, { name: 'South Academy' }],
  // Open every day, so the demo and the README's walkthroughs are never met by a closed, quiet weekend;
  // the catalog's closing times still stop today's orders as the day goes on.
  schedules: ESTABLISHMENTS.map(() => ({ workingDays: EVERY_DAY })),
  initialOrders: 60,
  scenario: {
    // About 45 of the 60 start pending: with a new order a minute and 40 min to resolve each, that is the
    // pool the world keeps, so orders resolve at the pace they arrive from the first minute on.
    resolveAfterMs: 40 * 60_000,
    // At the CLI's speed a new order at least every 8 s: a runner polling every 10 s always sees one.
    orderGapCap: 2,
    // Parents edit a pending order about once for every five new ones, never more than two of those
    // gaps apart (orderGapCap): at the CLI's speed one at least every 40 s, and in `npm start` (its own
    // order pace, 2.5 s) at least every 25 s. Half of each closing's late changes (at least one) edit one
    // of the day's pending orders: in `npm start`, 7.5 to 30 s after the kitchen closes, a minute in.
    editsPerOrder: 0.2,
    lateEditShare: 0.5,
  },
  tokens: 'per-organization',
  cliSpeed: 15,
  // The config's own defaults: today and the week ahead.
  notifier: { window: { daysBack: 0, daysAhead: 7 }, timeZone: TIME_ZONE },
};

const CANTEEN_AFTERNOON: WorldPreset = {
  name: 'canteen-afternoon',
  summary:
    'one school, 3 establishments, 2,900 orders over today ±3 days; a minute: ~3 new, ~2.5 resolved, ~2 archived',
  organizations: [{ name: 'Canteen School' }],
  establishments: 3,
  initialOrders: {
    counts: { pending: 200, completed: 600, canceled: 100, archived: 2_000 },
    ...WEEK_AROUND_TODAY,
  },
  scenario: {
    orderIntervalMs: 20_000,
    // 2.5 resolutions a minute, a fifth of them cancellations: ~2 completed and ~0.5 canceled.
    resolvePerMinute: 2.5,
    cancelRate: 0.2,
    archivePerMinute: 2,
    pickupDaysAhead: WEEK_AROUND_TODAY.daysAhead,
  },
  tokens: 'per-organization',
  cliSpeed: 1,
  notifier: { window: WEEK_AROUND_TODAY, timeZone: TIME_ZONE },
};

const SHARED_TOKEN: WorldPreset = {
  name: 'shared-token',
  summary:
    '20 schools on one token, ~100 orders each over today ±3 days; each: ~1 new, ~1 resolved per 2 min',
  organizations: Array.from({ length: 20 }, (_, index) => ({
    name: `School ${String(index + 1).padStart(2, '0')}`,
  })),
  initialOrders: {
    counts: { pending: 25, completed: 35, canceled: 10, archived: 30 },
    ...WEEK_AROUND_TODAY,
  },
  scenario: {
    orderIntervalMs: 120_000,
    resolvePerMinute: 0.5,
    cancelRate: 0.2,
    archivePerMinute: 0.3,
    pickupDaysAhead: WEEK_AROUND_TODAY.daysAhead,
  },
  tokens: 'shared',
  cliSpeed: 1,
  notifier: { window: WEEK_AROUND_TODAY, timeZone: TIME_ZONE },
};

export const WORLD_PRESETS: Readonly<Record<WorldName, WorldPreset>> = {
  demo: DEMO,
  'canteen-afternoon': CANTEEN_AFTERNOON,
  'shared-token': SHARED_TOKEN,
};

export function worldPreset(name: string): WorldPreset {
  const preset = Object.hasOwn(WORLD_PRESETS, name) ? WORLD_PRESETS[name as WorldName] : undefined;
  if (!preset) throw new RangeError(`unknown world "${name}"; expected one of ${WORLD_NAMES.join(', ')}`);
  return preset;
}
