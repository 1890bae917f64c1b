// The local runtime's digest ticker over a real SQLite store: a digest that could not be queued is
// reported with its subscriber, every other subscriber's digest is queued all the same, and the failed
// period is looked at again after a wait that doubles (while those queued are not built again).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { digestTicker } from '../../../cli/runtime/digestTicker.js';
import type { Config } from '../../../shared/config/configSchema.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { DigestNotQueuedError } from '../../../shared/delivery/errors.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { NORTH_SCHOOL_ID } from '../../support/configFixtures.js';
import { makeEvent, newOrderUuid } from '../../support/stateStoreConformance.js';

const HOUR_START = Date.parse('2026-11-24T11:00:00Z');
let now: number;
let store: SqliteStateStore;

function config(): Config {
  const digested = (id: string) => ({
    id,
    type: 'email',
    to: [`${id}@example.org`],
    digest: { every: '1h', types: ['order.created'] },
  });
  return parseConfig({
    api: { baseUrl: 'https://example.test/api/v1/admin' },
    organizations: [
      { id: NORTH_SCHOOL_ID, name: 'North School', token: { env: 'NORTH_TOKEN' }, timeZone: 'UTC' },
    ],
    smtp: { url: { env: 'SMTP_URL' }, from: 'notifier@example.test' },
    subscribers: [digested('office'), digested('kitchen')],
  });
}

beforeEach(() => {
  now = HOUR_START + 60_000;
  store = new SqliteStateStore({ path: ':memory:', clock: () => now, routeEvent: () => [] });
});

afterEach(() => {
  store.close();
  vi.restoreAllMocks();
});

describe('the digest ticker', () => {
  it('reports a digest it could not queue, queues the other subscriber’s, and tries the failed one again after a doubling wait', async () => {
    await store.recordEvents(NORTH_SCHOOL_ID, [makeEvent(NORTH_SCHOOL_ID, newOrderUuid(), 'order.created')]);
    const ticker = digestTicker({ config: config(), digests: store }, () => now);
    now = HOUR_START + 3_600_000 + 1_000;
    const record = store.recordDigest.bind(store);
    const failing = vi.spyOn(store, 'recordDigest').mockImplementation(async (organizationId, digest) => {
      if (digest.data.subscriber_id === 'office') throw new Error('database is locked');
      return record(organizationId, digest);
    });

    const first = await ticker?.tick();
    expect(first?.queued.map((digest) => digest.data.subscriber_id)).toEqual(['kitchen']);
    expect(first?.failed).toHaveLength(1);
    const error = new DigestNotQueuedError(
      first?.failed[0] ?? { subscriberId: '', organizationId: '', reason: '' },
    );
    expect(error.subscriberId).toBe('office');
    expect(error.message).toMatch(/^subscriber "office": digest \S+ not queued: Error: database is locked/);

    // Looked at again 5 s later, then after 10 s, 20 s…: a lasting fault is not reported every tick.
    const second = await ticker?.tick();
    expect(second?.failed).toEqual([]);
    now += 5_000;
    expect((await ticker?.tick())?.failed).toHaveLength(1);
    now += 5_000;
    expect((await ticker?.tick())?.failed).toEqual([]);
    now += 5_000;
    expect((await ticker?.tick())?.failed).toHaveLength(1);

    failing.mockRestore();
    now += 20_000;
    const third = await ticker?.tick();
    expect(third?.queued.map((digest) => digest.data.subscriber_id)).toEqual(['office']);
    expect(third?.failed).toEqual([]);
    expect((await ticker?.tick())?.queued).toEqual([]);
  });
});
