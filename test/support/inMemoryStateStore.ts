// The StateStore port in memory, for fast tests of the poll cycle's phases: the same checks and outcomes as
// the SQLite and DynamoDB adapters (one conformance suite), records kept as copies so no caller shares them.
// Like the SQLite store, it also serves the local ports over the same records: one event by id, the
// digests and pruning, each with a conformance suite of its own (eventLookupConformance.ts, …).

import { type BudgetCounterStore, InMemoryBudgetCounterStore } from '../../shared/api/budgetCounterStore.js';
import type { DigestStore } from '../../shared/delivery/digest/digestStore.js';
import type { Snapshot } from '../../shared/detect/snapshot.js';
import type { DigestEvent } from '../../shared/events/digestEvent.js';
import type { NotifierEvent } from '../../shared/events/notifierEvent.js';
import { LeaseLostError } from '../../shared/store/errors.js';
import type { EventLookup } from '../../shared/store/eventLookup.js';
import { type EventQuery, EventQuerySchema, matchesEventQuery } from '../../shared/store/eventQuery.js';
import { parseInput } from '../../shared/store/parseStored.js';
import type { PollState } from '../../shared/store/pollState.js';
import { type PollWatch, type PollWatchStore, pollWatchOf } from '../../shared/store/pollWatch.js';
import type { PruneResult, StateRetention } from '../../shared/store/stateRetention.js';
import {
  type AcquireLeaseOptions,
  type CommitResult,
  DEFAULT_EVENT_RETENTION_MS,
  type Lease,
  type LeaseFence,
  type RecordResult,
  type SavePollStateOptions,
  type SnapshotChange,
  type StateStore,
  type StoredEvent,
} from '../../shared/store/stateStore.js';
import {
  eventsToWrite,
  pollStateToWrite,
  readPollState,
  readSnapshot,
  readStoredEvent,
  snapshotToWrite,
} from '../../shared/store/storedRecords.js';
import type { RecordCorrupter } from './stateStoreConformance.js';

export interface InMemoryStateStoreOptions {
  /** Stamps `recordedAt` on logged events. @default Date.now */
  clock?: () => number;
  /** How long prune() keeps an event. @default DEFAULT_EVENT_RETENTION_MS */
  eventRetentionMs?: number;
  /** Pass one to several stores to share a token's budget. @default a new InMemoryBudgetCounterStore */
  budgetCounters?: BudgetCounterStore;
}

/** The port's operations, by name, for `failNext`. */
export type StateStoreOperation = Exclude<keyof StateStore, 'budgetCounters'>;

/** An event as the log keeps it: the CloudEvent as JSON text, as both adapters store its payload. */
interface LoggedEvent {
  id: string;
  type: string;
  payload: string;
  recordedAt: number;
  expiresAt: number;
  /** Order of logging, store-wide: ties of `recordedAt` keep the order events were logged in. */
  sequence: number;
}

interface OrganizationRecords {
  /** Snapshots as stored (copies of what was written), by order uuid; parsed again on every load. */
  snapshots: Map<string, Record<string, unknown>>;
  events: Map<string, LoggedEvent>;
  /** The poll state as stored (a copy of the parsed value written); parsed again on every load. */
  pollState: Record<string, unknown> | undefined;
  lease: Lease | undefined;
}

export class InMemoryStateStore
  implements StateStore, EventLookup, DigestStore, StateRetention, PollWatchStore
{
  readonly budgetCounters: BudgetCounterStore;
  /**
   * Spoils stored records behind the store's back, as a bad edit or another version's bug might: the next
   * read fails as the real adapters' do (MalformedRecordError). The conformance suite's harness.
   */
  readonly corrupt: RecordCorrupter;
  readonly #clock: () => number;
  readonly #eventRetentionMs: number;
  readonly #organizations = new Map<string, OrganizationRecords>();
  readonly #deliveryQueue: StoredEvent[] = [];
  /** Digests recorded, by id: kept apart from the event log, which never lists them. */
  readonly #digests = new Map<string, { digest: string; expiresAt: number }>();
  readonly #failures = new Map<StateStoreOperation, Error[]>();
  #sequence = 0;

  constructor(options: InMemoryStateStoreOptions = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#eventRetentionMs = options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS;
    this.budgetCounters = options.budgetCounters ?? new InMemoryBudgetCounterStore();
    this.corrupt = {
      snapshotStatus: async (organizationId, orderUuid) => {
        const stored = this.#records(organizationId).snapshots.get(orderUuid);
        if (!stored) throw new Error(`no snapshot of order ${orderUuid} to corrupt`);
        stored.status = 7;
      },
      eventPayload: async (organizationId, eventId) => {
        const stored = this.#records(organizationId).events.get(eventId);
        if (!stored) throw new Error(`no event ${eventId} to corrupt`);
        stored.payload = '{not json';
      },
      pollStateFailures: async (organizationId) => {
        const stored = this.#records(organizationId).pollState;
        if (!stored) throw new Error(`no poll state of ${organizationId} to corrupt`);
        stored.health = { ...(stored.health as object), consecutiveFailures: -1 };
      },
    };
  }

  async loadSnapshots(organizationId: string): Promise<Map<string, Snapshot>> {
    this.#failIfPlanned('loadSnapshots');
    const snapshots = new Map<string, Snapshot>();
    for (const [orderUuid, stored] of this.#records(organizationId).snapshots) {
      const snapshot = readSnapshot(structuredClone(stored), 'loadSnapshots', organizationId, orderUuid);
      snapshots.set(snapshot.orderUuid, snapshot);
    }
    return snapshots;
  }

  async commitChange(
    organizationId: string,
    change: SnapshotChange,
    fence?: LeaseFence,
  ): Promise<CommitResult> {
    this.#failIfPlanned('commitChange');
    const snapshot = snapshotToWrite(organizationId, change.snapshot);
    const events = eventsToWrite('commitChange', organizationId, change.events);
    this.#checkFence('commitChange', organizationId, fence);
    const records = this.#records(organizationId);
    const storedVersion = records.snapshots.get(snapshot.orderUuid)?.version;
    const expected = snapshot.version === 1 ? undefined : snapshot.version - 1;
    if (storedVersion !== expected) return { outcome: 'version_conflict' };
    records.snapshots.set(snapshot.orderUuid, structuredClone(snapshot));
    return { outcome: 'committed', duplicateEventIds: this.#logEvents(organizationId, events) };
  }

  async recordEvents(
    organizationId: string,
    events: readonly NotifierEvent[],
    fence?: LeaseFence,
  ): Promise<RecordResult> {
    this.#failIfPlanned('recordEvents');
    const parsed = eventsToWrite('recordEvents', organizationId, events);
    this.#checkFence('recordEvents', organizationId, fence);
    return { duplicateEventIds: this.#logEvents(organizationId, parsed) };
  }

  async listEvents(organizationId: string, sinceMs?: number): Promise<StoredEvent[]> {
    this.#failIfPlanned('listEvents');
    return this.#loggedEvents(organizationId)
      .filter((logged) => sinceMs === undefined || logged.recordedAt >= sinceMs)
      .map((logged) => toStoredEvent(logged, 'listEvents', organizationId));
  }

  async findEvents(organizationId: string, query: EventQuery): Promise<StoredEvent[]> {
    this.#failIfPlanned('findEvents');
    const parsed = parseInput(EventQuerySchema, query, 'findEvents', organizationId, 'event query');
    return this.#loggedEvents(organizationId)
      .reverse()
      .map((logged) => toStoredEvent(logged, 'findEvents', organizationId))
      .filter((stored) => matchesEventQuery(stored, parsed))
      .slice(0, parsed.limit);
  }

  async loadPollState(organizationId: string): Promise<PollState | undefined> {
    this.#failIfPlanned('loadPollState');
    const stored = this.#records(organizationId).pollState;
    return stored && readPollState(structuredClone(stored), 'loadPollState', organizationId);
  }

  /** The watchdog's read (shared/store/pollWatch.ts): the poll states' pace and health, as the copy holds them. */
  async loadPollWatches(organizationIds: readonly string[]): Promise<Map<string, PollWatch | undefined>> {
    const watches = new Map<string, PollWatch | undefined>();
    for (const id of organizationIds) {
      const state = await this.loadPollState(id);
      watches.set(id, state === undefined ? undefined : pollWatchOf(state));
    }
    return watches;
  }

  async savePollState(state: PollState, options?: SavePollStateOptions): Promise<void> {
    this.#failIfPlanned('savePollState');
    const parsed = pollStateToWrite(state);
    this.#checkFence('savePollState', parsed.organizationId, options);
    const records = this.#records(parsed.organizationId);
    records.pollState = structuredClone(parsed);
    if (options?.releaseLease) records.lease = undefined;
  }

  async acquireLease(
    organizationId: string,
    owner: string,
    nowMs: number,
    ttlMs: number,
    options: AcquireLeaseOptions = {},
  ): Promise<boolean> {
    this.#failIfPlanned('acquireLease');
    const records = this.#records(organizationId);
    const held = records.lease;
    const free =
      held === undefined ||
      held.until <= nowMs ||
      held.owner === owner ||
      (options.takeOverFrom !== undefined && held.owner === options.takeOverFrom);
    if (free) records.lease = { owner, until: nowMs + ttlMs };
    return free;
  }

  async leaseHolder(organizationId: string): Promise<Lease | undefined> {
    this.#failIfPlanned('leaseHolder');
    const lease = this.#records(organizationId).lease;
    return lease && { ...lease };
  }

  async releaseLease(organizationId: string, owner: string): Promise<void> {
    this.#failIfPlanned('releaseLease');
    const records = this.#records(organizationId);
    if (records.lease?.owner === owner) records.lease = undefined;
  }

  /**
   * Every event newly logged (by a commit or recordEvents), in the order logged, each id once: what the
   * outbox (SQLite) or the table's stream (DynamoDB) hands delivery. Duplicates never appear. Copies.
   */
  deliveryQueue(): StoredEvent[] {
    return structuredClone(this.#deliveryQueue);
  }

  /** The delivery queue's events, emptying it: what a delivery run would have taken since the last drain. */
  drainDeliveryQueue(): StoredEvent[] {
    return structuredClone(this.#deliveryQueue.splice(0));
  }

  /**
   * Makes the next call of `operation` reject with `error` (once per call of failNext, in order), before it
   * reads or writes anything: a store that is down or busy (e.g. StoreContentionError) for that call.
   */
  failNext(operation: StateStoreOperation, error: Error): void {
    this.#failures.set(operation, [...(this.#failures.get(operation) ?? []), error]);
  }

  async getEvent(eventId: string): Promise<StoredEvent | undefined> {
    for (const [organizationId, records] of this.#organizations) {
      const logged = records.events.get(eventId);
      if (logged) return toStoredEvent(logged, 'getEvent', organizationId);
    }
    return undefined;
  }

  async recordDigest(_organizationId: string, digest: DigestEvent): Promise<boolean> {
    if (this.#digests.has(digest.id)) return false;
    const recordedAt = this.#clock();
    this.#digests.set(digest.id, {
      digest: JSON.stringify(digest),
      expiresAt: recordedAt + this.#eventRetentionMs,
    });
    return true;
  }

  /** The digests recorded so far, in the order recorded. Copies. */
  recordedDigests(): DigestEvent[] {
    return [...this.#digests.values()].map(({ digest }) => JSON.parse(digest) as DigestEvent);
  }

  /** As SqliteStateStore.prune: forgets snapshots past their expiresAt and events past the retention. */
  async prune(nowMs: number): Promise<PruneResult> {
    let snapshots = 0;
    let events = 0;
    for (const records of this.#organizations.values()) {
      for (const [orderUuid, stored] of records.snapshots) {
        if (typeof stored.expiresAt === 'number' && stored.expiresAt <= nowMs) {
          records.snapshots.delete(orderUuid);
          snapshots += 1;
        }
      }
      for (const [eventId, logged] of records.events) {
        if (logged.expiresAt <= nowMs) {
          records.events.delete(eventId);
          events += 1;
        }
      }
    }
    // SQLite keeps a digest as a row of the event log, so its prune counts it as an event.
    for (const [digestId, { expiresAt }] of this.#digests) {
      if (expiresAt <= nowMs) {
        this.#digests.delete(digestId);
        events += 1;
      }
    }
    return { snapshots, events };
  }

  /** Logs each event not yet in the organization's log (queuing it for delivery); the others' ids. */
  #logEvents(organizationId: string, events: readonly NotifierEvent[]): string[] {
    const records = this.#records(organizationId);
    const recordedAt = this.#clock();
    const duplicateEventIds: string[] = [];
    for (const event of events) {
      if (records.events.has(event.id)) {
        duplicateEventIds.push(event.id);
        continue;
      }
      this.#sequence += 1;
      records.events.set(event.id, {
        id: event.id,
        type: event.type,
        payload: JSON.stringify(event),
        recordedAt,
        expiresAt: recordedAt + this.#eventRetentionMs,
        sequence: this.#sequence,
      });
      this.#deliveryQueue.push({ event: structuredClone(event), organizationId, recordedAt });
    }
    return duplicateEventIds;
  }

  /** The organization's logged events, oldest first. */
  #loggedEvents(organizationId: string): LoggedEvent[] {
    return [...this.#records(organizationId).events.values()].sort(
      (a, b) => a.recordedAt - b.recordedAt || a.sequence - b.sequence,
    );
  }

  #records(organizationId: string): OrganizationRecords {
    let records = this.#organizations.get(organizationId);
    if (!records) {
      records = { snapshots: new Map(), events: new Map(), pollState: undefined, lease: undefined };
      this.#organizations.set(organizationId, records);
    }
    return records;
  }

  /** As the adapters: a fenced write whose owner no longer holds the lease writes nothing. */
  #checkFence(operation: string, organizationId: string, fence: LeaseFence | undefined): void {
    if (fence === undefined) return;
    const holder = this.#records(organizationId).lease?.owner;
    if (holder !== fence.leaseOwner) {
      throw new LeaseLostError(operation, organizationId, fence.leaseOwner, holder);
    }
  }

  #failIfPlanned(operation: StateStoreOperation): void {
    const planned = this.#failures.get(operation);
    const error = planned?.shift();
    if (error) throw error;
  }
}

function toStoredEvent(logged: LoggedEvent, operation: string, organizationId: string): StoredEvent {
  return readStoredEvent(logged, operation, organizationId, logged.id);
}
