// The config contract's example (issue 3) with real uuids, and helpers that vary one field of it, so
// config tests spell out only the mistake they make; and North School's config as the CLI's process tests
// write it, so each of them spells out only what its case needs beyond it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigInput } from '../../shared/config/configSchema.js';
import type { RunningSimulator } from '../../simulator/startSimulator.js';

export const NORTH_SCHOOL_ID = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
export const NORTH_CANTEEN_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/**
 * An e-mail filter at SNS's full 150 value combinations (6 order types × 25 establishments × the one
 * `audience`): no room left in its policy for the branch re-sent e-mail comes through.
 */
export function filterAtSnsLimit(): { types: string[]; establishments: string[] } {
  return {
    types: [
      'order.created',
      'order.completed',
      'order.canceled',
      'order.rescheduled',
      'order.archived',
      'order.status_changed',
    ],
    establishments: Array.from(
      { length: 25 },
      (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    ),
  };
}

/** A fresh copy of the contract's example config each call. */
export function exampleConfig(): ConfigInput {
  return {
    api: { baseUrl: 'https://example.test/api/v1/admin', requestsPerMinute: 50 },
    organizations: [
      {
        id: NORTH_SCHOOL_ID,
        name: 'North School',
        token: { env: 'NORTH_TOKEN' },
        timeZone: 'Europe/Lisbon',
        window: { daysBack: 0, daysAhead: 7 },
        pollIntervalSeconds: 60,
        emitExisting: false,
      },
    ],
    subscribers: [
      {
        id: 'automation',
        type: 'webhook',
        url: 'https://hooks.example.test/orders',
        secret: { env: 'HOOK_SECRET' },
        filter: { types: ['order.created'] },
      },
      {
        id: 'kitchen-north',
        type: 'slack',
        webhookUrl: { env: 'SLACK_URL' },
        filter: { establishments: [NORTH_CANTEEN_ID] },
      },
      { id: 'office', type: 'email', to: ['office@example.org'], filter: { types: ['order.canceled'] } },
    ],
    smtp: { url: { env: 'SMTP_URL' }, from: 'Order alerts <alerts@example.org>' },
    state: { path: '.data/state.db' },
  };
}

/** The smallest valid config: every optional field left to its default. */
export function minimalConfig(): ConfigInput {
  return {
    api: { baseUrl: 'https://example.test/api/v1/admin' },
    organizations: [
      { id: NORTH_SCHOOL_ID, name: 'North School', token: { env: 'NORTH_TOKEN' }, timeZone: 'Europe/Lisbon' },
    ],
  };
}

/** Where a config points: a running simulator, or an API's base URL for the example's organization. */
export type ConfigTarget = Pick<RunningSimulator, 'baseUrl' | 'organization' | 'world'> | string;

export interface NorthSchoolConfigOptions {
  /** Merged over `{ baseUrl }` (the target's): a proxy's base URL, a `requestsPerMinute`. */
  api?: { baseUrl?: string; requestsPerMinute?: number };
  /** Merged over North School's id, name, token (`NORTH_TOKEN`) and time zone (the target's). */
  organization?: Record<string, unknown>;
  subscribers?: unknown[];
  /** Adds the SMTP server the e-mail subscribers need: its URL in `SMTP_URL`. */
  smtp?: boolean;
  /** `state.path`, relative to the config file; left out, the default. */
  state?: string;
}

/**
 * One organization, North School: the simulator's own (its id, its time zone) or, for a base URL, the
 * example's (in Lisbon); with only the sections asked for. Loose, so that a case may write what the schema
 * refuses.
 */
export function northSchoolConfig(
  target: ConfigTarget,
  { api, organization, subscribers, smtp, state }: NorthSchoolConfigOptions = {},
): Record<string, unknown> {
  const { baseUrl, id, timeZone } =
    typeof target === 'string'
      ? { baseUrl: target, id: NORTH_SCHOOL_ID, timeZone: 'Europe/Lisbon' }
      : { baseUrl: target.baseUrl, id: target.organization.id, timeZone: target.world.timeZone };
  return {
    api: { baseUrl, ...api },
    organizations: [{ id, name: 'North School', token: { env: 'NORTH_TOKEN' }, timeZone, ...organization }],
    ...(subscribers ? { subscribers } : {}),
    ...(smtp ? { smtp: { url: { env: 'SMTP_URL' }, from: 'Order alerts <alerts@example.org>' } } : {}),
    ...(state ? { state: { path: state } } : {}),
  };
}

/** Writes `northSchoolConfig(target, options)` to `fileName` in `dir`, and gives its path. */
export async function writeNorthSchoolConfig(
  dir: string,
  target: ConfigTarget,
  options: NorthSchoolConfigOptions = {},
  fileName = 'notifier.json',
): Promise<string> {
  const path = join(dir, fileName);
  await writeFile(path, JSON.stringify(northSchoolConfig(target, options), null, 2));
  return path;
}

type Path = readonly (string | number)[];

/** `config` (the example by default) with the value at `path` replaced; the parents must exist. */
export function configWith(path: Path, value: unknown, config: unknown = exampleConfig()): unknown {
  const { parent, key } = locate(config, path);
  parent[key] = value;
  return config;
}

/** `config` (the example by default) without the key at `path`. */
export function configWithout(path: Path, config: unknown = exampleConfig()): unknown {
  const { parent, key } = locate(config, path);
  if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
  else delete parent[key];
  return config;
}

function locate(
  config: unknown,
  path: Path,
): { parent: Record<string | number, unknown>; key: string | number } {
  const key = path.at(-1);
  if (key === undefined) throw new Error('path must not be empty');
  let parent = config as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) {
    const next = parent[segment];
    if (typeof next !== 'object' || next === null) throw new Error(`no object at ${path.join('.')}`);
    parent = next as Record<string | number, unknown>;
  }
  return { parent, key };
}
