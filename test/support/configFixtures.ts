// The config contract's example (issue 3) with real uuids, and helpers that vary one field of it, so
// config tests spell out only the mistake they make.
import type { ConfigInput } from '../../shared/config/configSchema.js';

export const NORTH_SCHOOL_ID = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
export const NORTH_CANTEEN_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

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
