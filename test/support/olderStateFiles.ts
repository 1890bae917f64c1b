// State files and poll states as older meal-notifiers wrote them, made from what this version wrote by
// undoing what the later migrations did: for the tests that pin the upgrades (SQLite and DynamoDB).
import Database from 'better-sqlite3';
import type { PollState } from '../../shared/store/pollState.js';

/** Turns a file's snapshots back into what schema 3 and earlier wrote: their expiry in epoch seconds. */
export const SNAPSHOTS_BACK_TO_SECONDS = `
  UPDATE snapshots
  SET expires_at = expires_at / 1000, data = json_set(data, '$.expiresAt', expires_at / 1000)
`;

/** A poll state as version 1 (schema 4 and earlier) wrote it: one flat record. */
export function pollStateAsVersion1(state: PollState): Record<string, unknown> {
  return {
    organizationId: state.organizationId,
    listingSizes: state.listings.sizes,
    lastFetchedAt: state.listings.walkedAt,
    lastWindows: {},
    baselined: [],
    pendingCoveredAt: state.coverage.pendingCoveredAt,
    watchingSince: state.coverage.watchingSince,
    sweep: state.sweep.inProgress,
    sweptAt: state.sweep.sweptAt,
    sweepCredit: state.sweep.credit,
    lookups: state.lookups.searched,
    resolutionRequests: state.lookups.averageRequests,
    cycleRequests: state.pace.averageCycleRequests,
    unreadable: state.unreadable,
    establishments: state.establishments,
    prepSummaries: state.prepSummaries,
    nextPollAt: state.pace.nextPollAt,
    ...state.health,
  };
}

/** The file at `path` (closed) as schema 6 left it: migration 7 added the kitchen board's messages and paused subscribers. */
export function rewriteAsSchema6(path: string): void {
  const raw = new Database(path);
  try {
    raw.exec('DROP TABLE slack_boards; DROP TABLE slack_replies; DROP TABLE paused_subscribers;');
    raw.pragma('user_version = 6');
  } finally {
    raw.close();
  }
}

/** The file at `path` (closed) as schema 5 left it: migration 6 added the events' source time and folds. */
export function rewriteAsSchema5(path: string): void {
  rewriteAsSchema6(path);
  const raw = new Database(path);
  try {
    raw.exec('ALTER TABLE events DROP COLUMN source_time; ALTER TABLE deliveries DROP COLUMN folded_into;');
    raw.pragma('user_version = 5');
  } finally {
    raw.close();
  }
}

/** The file at `path` (closed) as schema 4 left it: migration 5 rewrote the poll states as records. */
export function rewriteAsSchema4(path: string): void {
  rewriteAsSchema5(path);
  const raw = new Database(path);
  try {
    const rows = raw
      .prepare<[], { organization_id: string; data: string }>('SELECT * FROM poll_states')
      .all();
    const update = raw.prepare<[string, string]>('UPDATE poll_states SET data = ? WHERE organization_id = ?');
    for (const row of rows) {
      update.run(JSON.stringify(pollStateAsVersion1(JSON.parse(row.data))), row.organization_id);
    }
    raw.pragma('user_version = 4');
  } finally {
    raw.close();
  }
}

/**
 * The file at `path` (closed) as schema 1 left it: migrations 2 and 3 added the disabled subscribers and an
 * index, 4 turned snapshots' expiry from epoch seconds into ms, and 5 rewrote the poll states.
 */
export function rewriteAsSchema1(path: string): void {
  rewriteAsSchema4(path);
  const raw = new Database(path);
  try {
    raw.exec('DROP TABLE disabled_subscribers; DROP INDEX deliveries_due_by_subscriber;');
    raw.exec(SNAPSHOTS_BACK_TO_SECONDS);
    raw.pragma('user_version = 1');
  } finally {
    raw.close();
  }
}
