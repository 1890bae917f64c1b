// The state store port: snapshots, the event log (the outbox that delivery drains), per-organization poll
// state, a lease against overlapping runs (which also fences a cycle's writes), and the per-token request
// budget. Adapters: DynamoDB, SQLite.
import * as z from 'zod';
import type { BudgetCounterStore } from '../api/budgetCounterStore.js';
import type { Snapshot } from '../detect/snapshot.js';
import { type NotifierEvent, NotifierEventSchema } from '../events/notifierEvent.js';
import type { OrderEvent } from '../events/orderEvent.js';
import type { EventQuery } from './eventQuery.js';
import type { PollState } from './pollState.js';

/**
 * How long the event log keeps an event (and a digest its claim) unless configured otherwise, in both
 * adapters: long enough for an operator to look back over two weeks and replay.
 */
export const DEFAULT_EVENT_RETENTION_MS = 14 * 86_400_000;

/** One order's new snapshot and the events its transition made, committed together or not at all. */
export interface SnapshotChange {
  /** `version` is the new version; the stored one must be `version - 1` (absent when 1). */
  snapshot: Snapshot;
  events: OrderEvent[];
  /**
   * When each event's change happened at the source (epoch ms), by event id, where the API tells: logged
   * beside the event (not in it), so that delivery can tell a stale event (docs/delivery.md, "Calm after an outage").
   */
  sourceTimes?: Readonly<Record<string, number>>;
}

export type CommitResult =
  | {
      outcome: 'committed';
      /** Events the log already held (same id): not written again, and not to be delivered again. */
      duplicateEventIds: string[];
    }
  /** Another run changed the snapshot first; nothing was written. */
  | { outcome: 'version_conflict' };

export interface RecordResult {
  /** Events the log already held (same id): not written again, and not to be delivered again. */
  duplicateEventIds: string[];
}

export const StoredEventSchema = z.object({
  event: NotifierEventSchema,
  organizationId: z.string(),
  /** When it was committed, epoch ms. */
  recordedAt: z.number(),
});
export type StoredEvent = z.infer<typeof StoredEventSchema>;

/** Who holds an organization's lease, and until when (epoch ms). */
export interface Lease {
  owner: string;
  until: number;
}

export interface AcquireLeaseOptions {
  /**
   * An owner known to be gone (its process ended): its lease is taken however long it still runs. Only
   * that owner's: if another took the lease meanwhile, the claim fails as any other would.
   */
  takeOverFrom?: string;
}

/**
 * What fences a cycle's write: it is made only while `leaseOwner` still holds the organization's lease (run
 * out or not, as long as nobody took it). Otherwise nothing of it is written and it throws LeaseLostError,
 * so that a run paused past its lease never writes over the run that took it.
 */
export interface LeaseFence {
  leaseOwner: string;
}

export interface SavePollStateOptions extends LeaseFence {
  /** Also gives the lease back once the state is saved (the end of a cycle that holds it for the cycle). */
  releaseLease?: boolean;
}

export interface StateStore {
  /** Every snapshot of the organization, in one query. */
  loadSnapshots(organizationId: string): Promise<Map<string, Snapshot>>;
  /**
   * Writes the snapshot (optimistic version check) and its events (each only if new) atomically, as parsed
   * by their schemas. Fenced: LeaseLostError, nothing written, once the fence's owner lost the lease.
   */
  commitChange(organizationId: string, change: SnapshotChange, fence?: LeaseFence): Promise<CommitResult>;
  /**
   * Logs events that belong to no order's snapshot (a prep summary), each only if new, and queues them for
   * delivery like a commit's: one id is one event, however often it is recorded. Fenced as commitChange.
   */
  recordEvents(
    organizationId: string,
    events: readonly NotifierEvent[],
    fence?: LeaseFence,
  ): Promise<RecordResult>;
  /** Events recorded at or after `sinceMs`, oldest first. */
  listEvents(organizationId: string, sinceMs?: number): Promise<StoredEvent[]>;
  /** The organization's events that answer the query: newest first (last committed first), at most its limit. */
  findEvents(organizationId: string, query: EventQuery): Promise<StoredEvent[]>;
  loadPollState(organizationId: string): Promise<PollState | undefined>;
  /**
   * Saves the poll state, as parsed by its schema. With a fence, only while its owner holds the lease
   * (LeaseLostError otherwise: nothing written, the holder's lease and state left alone); with
   * `releaseLease`, also gives the lease back: in the same transaction on SQLite; on DynamoDB in a small write
   * after the save (the lease is an item of its own), whose failure is logged and leaves the saved state.
   */
  savePollState(state: PollState, options?: SavePollStateOptions): Promise<void>;
  /**
   * Takes the organization's lease if free, expired, already ours (renewing it), or held by the gone
   * owner `options.takeOverFrom`; true when we hold it.
   */
  acquireLease(
    organizationId: string,
    owner: string,
    nowMs: number,
    ttlMs: number,
    options?: AcquireLeaseOptions,
  ): Promise<boolean>;
  /** The organization's lease as last written (expired or not), or undefined when nobody holds it. */
  leaseHolder(organizationId: string): Promise<Lease | undefined>;
  /** Gives the lease back if we still hold it. */
  releaseLease(organizationId: string, owner: string): Promise<void>;
  /** Counters of the per-token request budget, shared by every run that uses this store. */
  readonly budgetCounters: BudgetCounterStore;
}
