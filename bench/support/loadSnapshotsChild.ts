// Child process of the snapshot memory bench: opens a state file, loads one organization's snapshots and
// prints its own memory figures as one JSON line, so nothing else the bench did inflates them.
// Usage: node --import tsx bench/support/loadSnapshotsChild.ts STATE_PATH ORGANIZATION_ID EXPECTED_COUNT
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';

export interface LoadSnapshotsFigures {
  count: number;
  /** RSS with the store open, before the load. */
  baselineRssMb: number;
  /** The process's peak RSS (getrusage maxRSS), the load's transient garbage included. */
  peakRssMb: number;
  /** RSS once loaded, with the snapshots still held. */
  heldRssMb: number;
  heapUsedMb: number;
  loadMs: number;
}

const [path, organizationId, expected] = process.argv.slice(2);
if (!path || !organizationId || !expected)
  throw new Error('usage: loadSnapshotsChild STATE_PATH ORG_ID COUNT');

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const store = new SqliteStateStore({ path });
const baseline = process.memoryUsage().rss;
const started = performance.now();
const snapshots = await store.loadSnapshots(organizationId);
const loadMs = Math.round(performance.now() - started);
const held = process.memoryUsage();
// maxRSS is in kilobytes.
const peak = Math.max(process.resourceUsage().maxRSS * 1024, held.rss);
if (snapshots.size !== Number(expected)) {
  throw new Error(`loaded ${snapshots.size} snapshots, expected ${expected}`);
}
const figures: LoadSnapshotsFigures = {
  count: snapshots.size,
  baselineRssMb: mb(baseline),
  peakRssMb: mb(peak),
  heldRssMb: mb(held.rss),
  heapUsedMb: mb(held.heapUsed),
  loadMs,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
store.close();
