// The state store in one local SQLite file (better-sqlite3, WAL) for the CLI runner: the same semantics as
// the DynamoDB adapter, each commit one transaction. The same file serves the local runner's other ports:
// one event by id, the digests, pruning (what SQLite has no TTL for) and, through `outbox`, the delivery
// outbox and its ledger.
import type Database from 'better-sqlite3';
import type { BudgetCounterStore } from '../../api/budgetCounterStore.js';
import type { DigestStore } from '../../delivery/digest/digestStore.js';
import type { Snapshot } from '../../detect/snapshot.js';
import { DIGEST_EVENT_TYPE, type DigestEvent } from '../../events/digestEvent.js';
import type { NotifierEvent } from '../../events/notifierEvent.js';
import type { EventLookup } from '../eventLookup.js';
import { type EventQuery, EventQuerySchema } from '../eventQuery.js';
import { parseInput } from '../parseStored.js';
import type { PollState } from '../pollState.js';
import type { PruneResult, StateRetention } from '../stateRetention.js';
import {
  type AcquireLeaseOptions,
  type CommitResult,
  DEFAULT_EVENT_RETENTION_MS,
  type Lease,
  type RecordResult,
  type SavePollStateOptions,
  type SnapshotChange,
  type StateStore,
  type StoredEvent,
} from '../stateStore.js';
import {
  eventsToWrite,
  pollStateToWrite,
  readPollState,
  readSnapshot,
  readStoredEvent,
  snapshotToWrite,
} from '../storedRecords.js';
import { SqliteBoardMessages } from './sqliteBoardMessages.js';
import { SqliteBudgetCounterStore } from './sqliteBudgetCounterStore.js';
import { guarded } from './sqliteErrors.js';
import { type EventRouter, SqliteOutbox } from './sqliteOutbox.js';
import { openStateDatabase } from './sqliteSchema.js';
import { stateFileError } from './stateFileError.js';

export interface SqliteStateStoreOptions {
  /** The state file (its directory is created), or `:memory:`. */
  path: string;
  /** The subscribers each new event is queued for. @default none: events are logged, not queued */
  routeEvent?: EventRouter;
  /** How long events stay in the log before prune() removes them. @default DEFAULT_EVENT_RETENTION_MS */
  eventRetentionMs?: number;
  /** @default 5000 */
  busyTimeoutMs?: number;
  /** Stamps `recordedAt` on events. @default Date.now */
  clock?: () => number;
}

/** An event row as the queries select it; readStoredEvent checks what it holds. */
interface EventRow {
  id: string;
  organization_id: string;
  recorded_at: unknown;
  payload: unknown;
}

export class SqliteStateStore implements StateStore, EventLookup, DigestStore, StateRetention {
  readonly budgetCounters: BudgetCounterStore;
  /** The kitchen board's message map (Slack app subscribers), in the same file. */
  readonly boardMessages: SqliteBoardMessages;
  /** The delivery outbox and subscriber status, in the same file and transactions as the event log. */
  readonly outbox: SqliteOutbox;
  readonly #db: Database.Database;
  readonly #clock: () => number;
  readonly #eventRetentionMs: number;
  readonly #statements;
  readonly #commit: (
    organizationId: string,
    snapshot: Snapshot,
    events: NotifierEvent[],
    sourceTimes: Readonly<Record<string, number>>,
  ) => CommitResult;
  readonly #recordEvents: (organizationId: string, events: readonly NotifierEvent[]) => RecordResult;
  readonly #recordDigest: (organizationId: string, digest: DigestEvent) => boolean;
  readonly #prune: (nowMs: number) => PruneResult;
  readonly #savePollState: (state: PollState, releaseLeaseOf: string | undefined) => void;

  constructor(options: SqliteStateStoreOptions) {
    try {
      this.#db = openStateDatabase(options.path, { busyTimeoutMs: options.busyTimeoutMs ?? 5_000 });
    } catch (error) {
      throw stateFileError(options.path, error);
    }
    this.#clock = options.clock ?? Date.now;
    this.#eventRetentionMs = options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS;
    this.outbox = new SqliteOutbox(this.#db, options.routeEvent, this.#eventRetentionMs);
    this.budgetCounters = new SqliteBudgetCounterStore(this.#db);
    this.boardMessages = new SqliteBoardMessages(this.#db);
    const db = this.#db;
    this.#statements = {
      snapshots: db.prepare<[string], { order_uuid: string; data: string }>(
        'SELECT order_uuid, data FROM snapshots WHERE organization_id = ?',
      ),
      snapshotVersion: db.prepare<[string, string], { version: number }>(
        'SELECT version FROM snapshots WHERE organization_id = ? AND order_uuid = ?',
      ),
      upsertSnapshot: db.prepare(
        `INSERT INTO snapshots (organization_id, order_uuid, version, expires_at, data) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (organization_id, order_uuid) DO UPDATE
         SET version = excluded.version, expires_at = excluded.expires_at, data = excluded.data`,
      ),
      insertEvent: db.prepare(
        `INSERT OR IGNORE INTO events
           (id, organization_id, event_type, order_uuid, recorded_at, expires_at, payload, source_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      eventsSince: db.prepare<[string, number], EventRow>(
        `SELECT id, organization_id, recorded_at, payload FROM events
         WHERE organization_id = ? AND recorded_at >= ? AND event_type <> '${DIGEST_EVENT_TYPE}'
         ORDER BY recorded_at, seq`,
      ),
      // NULL parameters leave a criterion out. The order is matched by its uuid or its reference, any case;
      // the types are one JSON array, so one statement serves any number of them.
      findEvents: db.prepare<[FindEventsParameters], EventRow>(
        `SELECT id, organization_id, recorded_at, payload FROM events
         WHERE organization_id = @organizationId AND recorded_at >= @sinceMs
           AND event_type <> '${DIGEST_EVENT_TYPE}'
           AND (@types IS NULL OR event_type IN (SELECT value FROM json_each(@types)))
           AND (@order IS NULL OR lower(order_uuid) = lower(@order)
                OR lower(json_extract(payload, '$.data.order.reference')) = lower(@order))
         ORDER BY recorded_at DESC, seq DESC
         LIMIT @limit`,
      ),
      // Digests are in the log only to ride the outbox; they are never listed or replayed as events.
      eventById: db.prepare<[string], EventRow>(
        `SELECT id, organization_id, recorded_at, payload FROM events WHERE id = ? AND event_type <> '${DIGEST_EVENT_TYPE}'`,
      ),
      pollState: db.prepare<[string], { data: string }>(
        'SELECT data FROM poll_states WHERE organization_id = ?',
      ),
      savePollState: db.prepare(
        `INSERT INTO poll_states (organization_id, data) VALUES (?, ?)
         ON CONFLICT (organization_id) DO UPDATE SET data = excluded.data`,
      ),
      // The last parameter names a gone owner to take over from; NULL (none) never equals an owner.
      acquireLease: db.prepare(
        `INSERT INTO leases (organization_id, owner, lease_until) VALUES (?, ?, ?)
         ON CONFLICT (organization_id) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
         WHERE leases.lease_until <= ? OR leases.owner = excluded.owner OR leases.owner = ?`,
      ),
      leaseHolder: db.prepare<[string], { owner: string; lease_until: number }>(
        'SELECT owner, lease_until FROM leases WHERE organization_id = ?',
      ),
      releaseLease: db.prepare('DELETE FROM leases WHERE organization_id = ? AND owner = ?'),
      pruneSnapshots: db.prepare('DELETE FROM snapshots WHERE expires_at <= ?'),
      pruneEvents: db.prepare('DELETE FROM events WHERE expires_at <= ?'),
    };
    const statements = this.#statements;

    /**
     * Writes events to the log and queues each new one for delivery, inside the caller's transaction. An
     * event already in the log was queued when it was first logged, so it is not queued again; its id is
     * returned.
     */
    const logEvents = (
      organizationId: string,
      events: readonly NotifierEvent[],
      sourceTimes: Readonly<Record<string, number>> = {},
    ): string[] => {
      const recordedAt = this.#clock();
      const duplicateEventIds: string[] = [];
      for (const event of events) {
        const inserted = statements.insertEvent.run(
          event.id,
          organizationId,
          event.type,
          event.subject,
          recordedAt,
          recordedAt + this.#eventRetentionMs,
          JSON.stringify(event),
          sourceTimes[event.id] ?? null,
        );
        if (inserted.changes === 0) duplicateEventIds.push(event.id);
        else this.outbox.enqueue(event, recordedAt);
      }
      return duplicateEventIds;
    };

    this.#commit = db.transaction(
      (
        organizationId: string,
        snapshot: Snapshot,
        events: NotifierEvent[],
        sourceTimes: Readonly<Record<string, number>>,
      ) => {
        const stored = statements.snapshotVersion.get(organizationId, snapshot.orderUuid);
        const expected = snapshot.version === 1 ? undefined : snapshot.version - 1;
        if (stored?.version !== expected) return { outcome: 'version_conflict' } as const;
        statements.upsertSnapshot.run(
          organizationId,
          snapshot.orderUuid,
          snapshot.version,
          snapshot.expiresAt,
          JSON.stringify(snapshot),
        );
        return {
          outcome: 'committed',
          duplicateEventIds: logEvents(organizationId, events, sourceTimes),
        } as const;
      },
    ).immediate;

    this.#recordEvents = db.transaction((organizationId: string, events: readonly NotifierEvent[]) => ({
      duplicateEventIds: logEvents(organizationId, events),
    })).immediate;

    this.#recordDigest = db.transaction((organizationId: string, digest: DigestEvent) => {
      const recordedAt = this.#clock();
      const inserted = statements.insertEvent.run(
        digest.id,
        organizationId,
        digest.type,
        digest.subject,
        recordedAt,
        recordedAt + this.#eventRetentionMs,
        JSON.stringify(digest),
        null,
      );
      if (inserted.changes === 0) return false;
      this.outbox.enqueueFor(digest.data.subscriber_id, digest.id, recordedAt);
      return true;
    }).immediate;

    // The end of a cycle saves the state and gives the lease back together.
    this.#savePollState = db.transaction((state: PollState, releaseLeaseOf: string | undefined) => {
      statements.savePollState.run(state.organizationId, JSON.stringify(state));
      if (releaseLeaseOf !== undefined) statements.releaseLease.run(state.organizationId, releaseLeaseOf);
    }).immediate;

    this.#prune = db.transaction((nowMs: number) => ({
      snapshots: statements.pruneSnapshots.run(nowMs).changes,
      events: statements.pruneEvents.run(nowMs).changes,
    })).immediate;
  }

  async loadSnapshots(organizationId: string): Promise<Map<string, Snapshot>> {
    return guarded('loadSnapshots', organizationId, () => {
      const snapshots = new Map<string, Snapshot>();
      for (const row of this.#statements.snapshots.all(organizationId)) {
        const snapshot = readSnapshot(row.data, 'loadSnapshots', organizationId, row.order_uuid);
        snapshots.set(snapshot.orderUuid, snapshot);
      }
      return snapshots;
    });
  }

  async commitChange(organizationId: string, change: SnapshotChange): Promise<CommitResult> {
    const snapshot = snapshotToWrite(organizationId, change.snapshot);
    eventsToWrite('commitChange', organizationId, change.events);
    return guarded('commitChange', organizationId, () =>
      this.#commit(organizationId, snapshot, change.events, change.sourceTimes ?? {}),
    );
  }

  async recordEvents(organizationId: string, events: readonly NotifierEvent[]): Promise<RecordResult> {
    const parsed = eventsToWrite('recordEvents', organizationId, events);
    return guarded('recordEvents', organizationId, () => this.#recordEvents(organizationId, parsed));
  }

  async listEvents(organizationId: string, sinceMs?: number): Promise<StoredEvent[]> {
    return guarded('listEvents', organizationId, () =>
      this.#statements.eventsSince
        .all(organizationId, sinceMs ?? Number.MIN_SAFE_INTEGER)
        .map((row) => toStoredEvent(row, 'listEvents')),
    );
  }

  /**
   * Records a digest in the log and queues it for its one subscriber, in one transaction; false when a
   * digest of that id (the same subscriber, organization and period) is already recorded.
   */
  async recordDigest(organizationId: string, digest: DigestEvent): Promise<boolean> {
    return guarded('recordDigest', organizationId, () => this.#recordDigest(organizationId, digest));
  }

  async findEvents(organizationId: string, query: EventQuery): Promise<StoredEvent[]> {
    const { sinceMs, types, order, limit } = parseInput(
      EventQuerySchema,
      query,
      'findEvents',
      organizationId,
      'event query',
    );
    return guarded('findEvents', organizationId, () =>
      this.#statements.findEvents
        .all({
          organizationId,
          sinceMs: sinceMs ?? Number.MIN_SAFE_INTEGER,
          types: types && types.length > 0 ? JSON.stringify(types) : null,
          order: order ?? null,
          limit,
        })
        .map((row) => toStoredEvent(row, 'findEvents')),
    );
  }

  async loadPollState(organizationId: string): Promise<PollState | undefined> {
    return guarded('loadPollState', organizationId, () => {
      const row = this.#statements.pollState.get(organizationId);
      return row && readPollState(row.data, 'loadPollState', organizationId);
    });
  }

  async savePollState(state: PollState, options: SavePollStateOptions = {}): Promise<void> {
    const parsed = pollStateToWrite(state);
    guarded('savePollState', parsed.organizationId, () =>
      this.#savePollState(parsed, options.releaseLeaseOf),
    );
  }

  async acquireLease(
    organizationId: string,
    owner: string,
    nowMs: number,
    ttlMs: number,
    options: AcquireLeaseOptions = {},
  ): Promise<boolean> {
    return guarded('acquireLease', organizationId, () => {
      const result = this.#statements.acquireLease.run(
        organizationId,
        owner,
        nowMs + ttlMs,
        nowMs,
        options.takeOverFrom ?? null,
      );
      return result.changes === 1;
    });
  }

  async leaseHolder(organizationId: string): Promise<Lease | undefined> {
    return guarded('leaseHolder', organizationId, () => {
      const row = this.#statements.leaseHolder.get(organizationId);
      return row && { owner: row.owner, until: row.lease_until };
    });
  }

  async releaseLease(organizationId: string, owner: string): Promise<void> {
    guarded('releaseLease', organizationId, () => this.#statements.releaseLease.run(organizationId, owner));
  }

  async getEvent(eventId: string): Promise<StoredEvent | undefined> {
    return guarded('getEvent', undefined, () => {
      const row = this.#statements.eventById.get(eventId);
      return row === undefined ? undefined : toStoredEvent(row, 'getEvent');
    });
  }

  async prune(nowMs: number): Promise<PruneResult> {
    return guarded('prune', undefined, () => this.#prune(nowMs));
  }

  close(): void {
    this.#db.close();
  }
}

interface FindEventsParameters {
  organizationId: string;
  sinceMs: number;
  types: string | null;
  order: string | null;
  limit: number;
}

function toStoredEvent(row: EventRow, operation: string): StoredEvent {
  const fields = { payload: row.payload, recordedAt: row.recorded_at };
  return readStoredEvent(fields, operation, row.organization_id, row.id);
}
