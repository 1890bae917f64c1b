// The same reservation scenarios against every BudgetCounterStore adapter: in memory, SQLite and DynamoDB
// Local. Each scenario opens two handles on one budget: the same adapter in one process (in memory, SQLite,
// where calls cannot interleave), and two adapters on one table for DynamoDB, where they really race.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BudgetCounterStore,
  InMemoryBudgetCounterStore,
} from '../../../shared/api/budgetCounterStore.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { takeOne } from '../../support/budgetTake.js';
import { createLocalStateTable } from '../../support/dynamoLocal.js';

const T0 = Date.UTC(2026, 2, 5, 12, 0, 0);
const WINDOW = 60_000;

interface BudgetHarness {
  /** Two handles on one budget. */
  stores: [BudgetCounterStore, BudgetCounterStore];
  cleanup(): Promise<void>;
}

const adapters: Array<[string, () => Promise<BudgetHarness>]> = [
  [
    'InMemoryBudgetCounterStore',
    async () => {
      const store = new InMemoryBudgetCounterStore();
      return { stores: [store, store], cleanup: async () => {} };
    },
  ],
  [
    'SqliteBudgetCounterStore',
    async () => {
      const state = new SqliteStateStore({ path: ':memory:', clock: () => T0 });
      return { stores: [state.budgetCounters, state.budgetCounters], cleanup: async () => state.close() };
    },
  ],
  [
    'DynamoBudgetCounterStore',
    async () => {
      const table = await createLocalStateTable();
      const open = () =>
        new DynamoStateStore({ client: table.client, tableName: table.tableName }).budgetCounters;
      return { stores: [open(), open()], cleanup: table.drop };
    },
  ],
];

describe.each(adapters)('%s reservations', (_name, createHarness) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });

  async function open() {
    const harness = await createHarness();
    cleanups.push(harness.cleanup);
    const [store, other] = harness.stores;
    return { store, other, key: `token#${randomUUID()}` };
  }

  it('grants as many as fit, up to atMost, then refuses until atLeast fit', async () => {
    const { store, key } = await open();
    const at = T0 + 2_000;

    expect(await store.reserve(key, T0, { atLeast: 1, atMost: 3, countAtMs: at }, 5, WINDOW)).toEqual({
      granted: 3,
    });
    expect(await store.reserve(key, T0, { atLeast: 1, atMost: 3, countAtMs: at }, 5, WINDOW)).toEqual({
      granted: 2,
    });
    expect(await store.reserve(key, T0, { atLeast: 1, atMost: 3, countAtMs: at }, 5, WINDOW)).toEqual({
      granted: 0,
      retryAtMs: at + WINDOW,
    });
    expect(await store.remaining(key, T0, 5, WINDOW)).toBe(0);
  });

  it('grants nothing, and records nothing, when fewer than atLeast fit', async () => {
    const { store, key } = await open();
    for (let i = 0; i < 3; i += 1) await takeOne(store, key, T0 + i * 1_000, 5, WINDOW);

    expect(
      await store.reserve(key, T0 + 3_000, { atLeast: 3, atMost: 5, countAtMs: T0 + 5_000 }, 5, WINDOW),
    ).toEqual({ granted: 0, retryAtMs: T0 + WINDOW });
    expect(await store.remaining(key, T0 + 3_000, 5, WINDOW)).toBe(2);
    // Once the oldest take has left, three fit.
    expect(
      await store.reserve(key, T0 + WINDOW, { atLeast: 3, atMost: 5, countAtMs: T0 + WINDOW }, 5, WINDOW),
    ).toEqual({ granted: 3 });
  });

  it('keeps counting a reservation dated in the future until its time plus the window', async () => {
    const { store, key } = await open();
    const at = T0 + 10_000;
    await store.reserve(key, T0, { atLeast: 1, atMost: 4, countAtMs: at }, 5, WINDOW);
    await takeOne(store, key, T0, 5, WINDOW);

    expect(await store.remaining(key, T0, 5, WINDOW)).toBe(0);
    // The take made at T0 has left; the reserved four still count.
    expect(await store.remaining(key, T0 + WINDOW, 5, WINDOW)).toBe(1);
    expect(await takeOne(store, key, T0 + WINDOW, 5, WINDOW)).toEqual({ granted: true, remaining: 0 });
    expect(await takeOne(store, key, at + WINDOW - 1, 5, WINDOW)).toEqual({
      granted: false,
      retryAtMs: at + WINDOW,
    });
    expect(await store.remaining(key, at + WINDOW, 5, WINDOW)).toBe(4);
  });

  it('refuses a take with the time the earliest future entry leaves the window', async () => {
    const { store, key } = await open();
    await store.reserve(key, T0, { atLeast: 1, atMost: 2, countAtMs: T0 + 20_000 }, 3, WINDOW);
    await store.reserve(key, T0, { atLeast: 1, atMost: 1, countAtMs: T0 + 10_000 }, 3, WINDOW);

    expect(await takeOne(store, key, T0 + 1_000, 3, WINDOW)).toEqual({
      granted: false,
      retryAtMs: T0 + 10_000 + WINDOW,
    });
  });

  it('releases exactly the given count of entries at that time, and nothing else', async () => {
    const { store, other, key } = await open();
    const at = T0 + 5_000;
    await takeOne(store, key, T0, 10, WINDOW);
    await store.reserve(key, T0, { atLeast: 1, atMost: 6, countAtMs: at }, 10, WINDOW);
    await store.reserve(key, T0, { atLeast: 1, atMost: 2, countAtMs: at + 1 }, 10, WINDOW);
    expect(await store.remaining(key, T0, 10, WINDOW)).toBe(1);

    await other.release(key, at, 4);
    expect(await store.remaining(key, T0, 10, WINDOW)).toBe(5);

    // More than are left at that time: only those go; the take and the other reservation stay.
    await other.release(key, at, 10);
    expect(await store.remaining(key, T0, 10, WINDOW)).toBe(7);
    await other.release(key, at, 1);
    expect(await store.remaining(key, T0, 10, WINDOW)).toBe(7);
  });

  it('postpones exactly the given count of entries at that time, which then count until their new time', async () => {
    const { store, other, key } = await open();
    const at = T0 + 5_000;
    const later = T0 + 20_000;
    await takeOne(store, key, T0, 10, WINDOW);
    await store.reserve(key, T0, { atLeast: 1, atMost: 6, countAtMs: at }, 10, WINDOW);
    expect(await other.postpone(key, at, later, 4)).toBe(4);
    // Nothing freed by the move: the take, two left at 5 s, four now at 20 s.
    expect(await store.remaining(key, T0, 10, WINDOW)).toBe(3);
    // More than are left at that time: only those move.
    expect(await other.postpone(key, at, later, 10)).toBe(2);
    expect(await store.remaining(key, T0, 10, WINDOW)).toBe(3);

    // Once 5 s plus the window has passed, the six moved still count, until 20 s plus the window.
    expect(await store.remaining(key, at + WINDOW, 10, WINDOW)).toBe(4);
    expect(
      await store.reserve(key, at + WINDOW, { atLeast: 5, atMost: 5, countAtMs: at + WINDOW }, 10, WINDOW),
    ).toEqual({ granted: 0, retryAtMs: later + WINDOW });
    expect(await store.remaining(key, later + WINDOW, 10, WINDOW)).toBe(10);
  });

  it('moves nothing, and says so, once a reservation has forgotten the entries as gone', async () => {
    const { store, other, key } = await open();
    const at = T0 + 5_000;
    await store.reserve(key, T0, { atLeast: 1, atMost: 3, countAtMs: at }, 10, WINDOW);
    // A reservation after 5 s plus the window no longer counts them, and forgets them.
    await store.reserve(key, at + WINDOW, { atLeast: 10, atMost: 10, countAtMs: at + WINDOW }, 10, WINDOW);
    expect(await other.postpone(key, at, at + WINDOW + 2_000, 3)).toBe(0);
    expect(await store.remaining(key, at + WINDOW, 10, WINDOW)).toBe(0);
  });

  it('grants nothing while paused, saying when the pause ends', async () => {
    const { store, other, key } = await open();
    await other.pauseUntil(key, T0 + 9_000);

    expect(await store.reserve(key, T0, { atLeast: 1, atMost: 3, countAtMs: T0 + 1_000 }, 5, WINDOW)).toEqual(
      {
        granted: 0,
        retryAtMs: T0 + 9_000,
      },
    );
    expect(
      await store.reserve(key, T0 + 9_000, { atLeast: 1, atMost: 3, countAtMs: T0 + 10_000 }, 5, WINDOW),
    ).toEqual({ granted: 3 });
  });

  it('never grants more than the limit to two reservers racing on one key', async () => {
    const { store, other, key } = await open();
    const request = { atLeast: 1, atMost: 4, countAtMs: T0 + 2_000 };

    const grants = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).reserve(key, T0, request, 9, WINDOW)),
    );

    expect(grants.reduce((sum, grant) => sum + grant.granted, 0)).toBe(9);
    expect(await store.remaining(key, T0, 9, WINDOW)).toBe(0);
    expect(await takeOne(other, key, T0, 9, WINDOW)).toMatchObject({ granted: false });
  });

  it('never exceeds the limit between racing reservers and takers', async () => {
    const { store, other, key } = await open();
    const request = { atLeast: 2, atMost: 3, countAtMs: T0 + 1_000 };

    const [first, second, take, otherTake] = await Promise.all([
      store.reserve(key, T0, request, 6, WINDOW),
      other.reserve(key, T0, request, 6, WINDOW),
      takeOne(store, key, T0, 6, WINDOW),
      takeOne(other, key, T0, 6, WINDOW),
    ]);

    const reserved = first.granted + second.granted;
    const taken = [take, otherTake].filter((result) => result.granted).length;
    expect(reserved + taken).toBeLessThanOrEqual(6);
    expect(await store.remaining(key, T0, 6, WINDOW)).toBe(6 - reserved - taken);
  });
});
