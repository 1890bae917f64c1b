// State files as older meal-notifiers wrote them, made from one this version wrote by undoing what the
// later migrations did: for the tests that pin the migration in place.
import Database from 'better-sqlite3';

/** Turns a file's snapshots back into what schema 3 and earlier wrote: their expiry in epoch seconds. */
export const SNAPSHOTS_BACK_TO_SECONDS = `
  UPDATE snapshots
  SET expires_at = expires_at / 1000, data = json_set(data, '$.expiresAt', expires_at / 1000)
`;

/**
 * The file at `path` (closed) as schema 1 left it: migrations 2 and 3 added the disabled subscribers and an
 * index, and 4 turned snapshots' expiry from epoch seconds into ms.
 */
export function rewriteAsSchema1(path: string): void {
  const raw = new Database(path);
  try {
    raw.exec('DROP TABLE disabled_subscribers; DROP INDEX deliveries_due_by_subscriber;');
    raw.exec(SNAPSHOTS_BACK_TO_SECONDS);
    raw.pragma('user_version = 1');
  } finally {
    raw.close();
  }
}
