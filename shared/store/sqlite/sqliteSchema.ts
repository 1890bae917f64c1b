// Opens the local state file: pragmas (WAL, busy timeout, foreign keys) and schema migrations tracked in
// `PRAGMA user_version`, so an old state file is upgraded in place and a newer one is refused.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StateFileTooNewError } from '../errors.js';
import { upgradePollState } from '../pollState.js';

/**
 * Migration n (1-based) brings a file from user_version n - 1 to n: SQL, or a function for what SQL cannot
 * say. Append only; never edit one. Every time column is epoch ms (snapshots' `expires_at` since migration
 * 4; the first one's comment predates it).
 */
const MIGRATIONS: ReadonlyArray<string | ((db: Database.Database) => void)> = [
  `
  CREATE TABLE snapshots (
    organization_id TEXT NOT NULL,
    order_uuid      TEXT NOT NULL,
    version         INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,  -- epoch seconds, as in the Snapshot
    data            TEXT NOT NULL,     -- the Snapshot as JSON
    PRIMARY KEY (organization_id, order_uuid)
  ) WITHOUT ROWID;

  -- The event log. seq is the commit order; ids are deterministic and embed the organization, so unique.
  CREATE TABLE events (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT NOT NULL UNIQUE,
    organization_id TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    order_uuid      TEXT NOT NULL,
    recorded_at     INTEGER NOT NULL,  -- epoch ms
    expires_at      INTEGER NOT NULL,  -- epoch ms
    payload         TEXT NOT NULL      -- the CloudEvent as JSON
  );
  CREATE INDEX events_by_organization ON events (organization_id, recorded_at, seq);

  CREATE TABLE poll_states (
    organization_id TEXT PRIMARY KEY,
    data            TEXT NOT NULL
  );

  CREATE TABLE leases (
    organization_id TEXT PRIMARY KEY,
    owner           TEXT NOT NULL,
    lease_until     INTEGER NOT NULL
  );

  CREATE TABLE budget_requests (
    key TEXT NOT NULL,
    at  INTEGER NOT NULL
  );
  CREATE INDEX budget_requests_by_key ON budget_requests (key, at);

  CREATE TABLE budget_pauses (
    key          TEXT PRIMARY KEY,
    paused_until INTEGER NOT NULL
  );

  -- One row per (subscriber, event): the delivery outbox.
  CREATE TABLE deliveries (
    subscriber_id   TEXT NOT NULL,
    event_id        TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    status          TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'dead')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error      TEXT,
    delivered_at    INTEGER,
    PRIMARY KEY (subscriber_id, event_id)
  ) WITHOUT ROWID;
  CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
  CREATE INDEX deliveries_by_event ON deliveries (event_id);
  `,
  `
  -- Subscribers that answered "gone" (410, an archived Slack channel): nothing more is queued for them.
  CREATE TABLE disabled_subscribers (
    subscriber_id TEXT PRIMARY KEY,
    disabled_at   INTEGER NOT NULL,
    reason        TEXT NOT NULL
  );
  `,
  `
  -- Each subscriber's queue is drained on its own, so its due rows are looked up by subscriber.
  CREATE INDEX deliveries_due_by_subscriber ON deliveries (subscriber_id, status, next_attempt_at);
  `,
  `
  -- Every time in the file is epoch ms: snapshots' expiry, in the column and in the Snapshot's JSON, was
  -- in seconds until now. Each row keeps the same instant.
  UPDATE snapshots
  SET expires_at = expires_at * 1000, data = json_set(data, '$.expiresAt', expires_at * 1000);
  `,
  rewritePollStatesAsCurrentVersion,
  `
  -- When an event's change happened at the source (epoch ms), where the API tells: a delivery whose event
  -- went stale is folded into a catch-up instead of being sent (README, "Calm after an outage").
  ALTER TABLE events ADD COLUMN source_time INTEGER;
  -- A delivery folded into a catch-up: delivered, by the catch-up event of this id.
  ALTER TABLE deliveries ADD COLUMN folded_into TEXT;
  `,
  `
  -- The kitchen's board (Slack app subscribers): each board's message and each order's reply in its
  -- thread, with the version the reply shows, so a restart or a second runner edits the same messages.
  CREATE TABLE slack_boards (
    subscriber_id      TEXT NOT NULL,
    establishment_uuid TEXT NOT NULL,
    day                TEXT NOT NULL,
    changed_at         INTEGER,           -- epoch ms; set while an edit of the board is owed
    data               TEXT NOT NULL,     -- the BoardRecord as JSON
    PRIMARY KEY (subscriber_id, establishment_uuid, day)
  ) WITHOUT ROWID;
  CREATE INDEX slack_boards_to_render ON slack_boards (subscriber_id, changed_at);
  -- Subscribers waiting on a person (a revoked token, an app not in its channel): their deliveries stay
  -- queued, and status says what to do.
  CREATE TABLE paused_subscribers (
    subscriber_id TEXT PRIMARY KEY,
    paused_at     INTEGER NOT NULL,  -- epoch ms, the first refusal
    reason        TEXT NOT NULL
  );
  CREATE TABLE slack_replies (
    subscriber_id      TEXT NOT NULL,
    establishment_uuid TEXT NOT NULL,
    day                TEXT NOT NULL,
    order_uuid         TEXT NOT NULL,
    version            TEXT NOT NULL,     -- compared on save: an older write never lands over a newer one
    data               TEXT NOT NULL,     -- the ReplyRecord as JSON
    PRIMARY KEY (subscriber_id, establishment_uuid, day, order_uuid)
  ) WITHOUT ROWID;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface OpenOptions {
  /** How long a writer waits for another process's lock before SQLITE_BUSY. @default 5000 */
  busyTimeoutMs?: number;
}

/** Opens (creating if needed) and migrates the state file at `path` (`:memory:` for a private one). */
export function openStateDatabase(path: string, options: OpenOptions = {}): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5_000)}`);
    // WAL lets the delivery loop read while a poll commits; NORMAL sync is durable enough under WAL.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function migrate(db: Database.Database, path: string): void {
  db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SCHEMA_VERSION) throw new StateFileTooNewError(path, current, SCHEMA_VERSION);
    for (const [index, sql] of MIGRATIONS.entries()) {
      if (index + 1 <= current) continue;
      if (typeof sql === 'string') db.exec(sql);
      else sql(db);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/**
 * Poll states in the current version's records (pollState.ts), so the file holds one shape. A state that
 * does not parse is left as it is: reading it names the field at fault, which an upgrade must not hide.
 */
function rewritePollStatesAsCurrentVersion(db: Database.Database): void {
  const rows = db
    .prepare<[], { organization_id: string; data: string }>('SELECT organization_id, data FROM poll_states')
    .all();
  const update = db.prepare<[string, string]>('UPDATE poll_states SET data = ? WHERE organization_id = ?');
  for (const row of rows) {
    let upgraded: unknown;
    try {
      upgraded = upgradePollState(JSON.parse(row.data));
    } catch {
      continue;
    }
    update.run(JSON.stringify(upgraded), row.organization_id);
  }
}
