// Peak resident memory of a process holding 100,000 snapshots loaded from a SQLite state store, measured in a child process of its own.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Snapshot } from '../shared/detect/snapshot.js';
import { SqliteStateStore } from '../shared/store/sqlite/sqliteStateStore.js';
import { formatTimestamp, microsFromMs } from '../simulator/timestamps.js';
import type { LoadSnapshotsFigures } from './support/loadSnapshotsChild.js';
import { T0 } from './support/pollFixture.js';

const SNAPSHOTS = 100_000;
const ORGANIZATION = '7d1c9a4e-2b3f-4c5d-8e6f-9a0b1c2d3e4f';
const ESTABLISHMENTS = [
  '3f2a1b0c-4d5e-4f60-8a1b-2c3d4e5f6a7b',
  'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  'c0ffee00-1234-4abc-9def-0123456789ab',
];
const STATUSES = ['pending', 'pending', 'pending', 'completed', 'completed', 'canceled', 'archived'];
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHILD = fileURLToPath(new URL('./support/loadSnapshotsChild.ts', import.meta.url));

export async function benchSnapshotMemory(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'meal-notifier-bench-'));
  try {
    const path = join(dir, 'state.db');
    await writeSnapshots(path);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', CHILD, path, ORGANIZATION, String(SNAPSHOTS)],
      { cwd: ROOT, maxBuffer: 1 << 20 },
    );
    const last = stdout.trim().split('\n').pop() ?? '';
    const figures = JSON.parse(last) as LoadSnapshotsFigures;
    return {
      peak_rss_mb_100k_snapshots: figures.peakRssMb,
      snapshot_load_baseline_rss_mb: figures.baselineRssMb,
      snapshot_load_rss_increase_mb: Math.round((figures.peakRssMb - figures.baselineRssMb) * 10) / 10,
      snapshot_heap_mb_100k: figures.heapUsedMb,
      load_100k_snapshots_ms: figures.loadMs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Commits the snapshots one order at a time, as poll cycles would have; not timed. */
async function writeSnapshots(path: string): Promise<void> {
  const store = new SqliteStateStore({ path, clock: () => T0 });
  try {
    for (let index = 0; index < SNAPSHOTS; index += 1) {
      const result = await store.commitChange(ORGANIZATION, { snapshot: snapshotAt(index), events: [] });
      if (result.outcome !== 'committed') throw new Error(`snapshot ${index} not committed`);
      if ((index + 1) % 25_000 === 0) process.stderr.write(`  committed ${index + 1} snapshots\n`);
    }
  } finally {
    store.close();
  }
}

/** A snapshot as a poll cycle would store it: distinct uuids, the API's timestamp shapes, mixed states. */
function snapshotAt(index: number): Snapshot {
  const status = STATUSES[index % STATUSES.length] ?? 'pending';
  const updatedMs = T0 - 86_400_000 + index * 997;
  const stamp = formatTimestamp(microsFromMs(updatedMs) + (index % 1000));
  const day = 10 + (index % 8);
  return {
    orderUuid: `${(0x10000000 + index).toString(16)}-${(index % 0xffff).toString(16).padStart(4, '0')}-4${(index % 0xfff).toString(16).padStart(3, '0')}-9abc-${(index * 7919).toString(16).padStart(12, '0').slice(-12)}`,
    status,
    canceledAt: status === 'canceled' ? stamp : null,
    completedAt: status === 'completed' || status === 'archived' ? stamp : null,
    pickupDate: `2026-03-${String(day).padStart(2, '0')}`,
    establishmentUuid: ESTABLISHMENTS[index % ESTABLISHMENTS.length] ?? '',
    updatedAt: stamp,
    missingSince: null,
    version: 1,
    expiresAt: Date.UTC(2026, 2, day + 3),
  };
}
