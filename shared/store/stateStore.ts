// The state store port: snapshots, the event log (the outbox that delivery drains), per-organization poll
// state, a lease against overlapping runs, and the per-token request budget. Adapters: DynamoDB, SQLite.
import * as z from 'zod';
import type { BudgetCounterStore } from '../api/budgetCounterStore.js';
import { EstablishmentSchema } from '../api/schemas.js';
import type { Snapshot } from '../detect/snapshot.js';
import { UnreadableOrderSchema } from '../detect/unreadableOrders.js';
import { type NotifierEvent, NotifierEventSchema } from '../events/notifierEvent.js';
import type { OrderEvent } from '../events/orderEvent.js';
import type { EventQuery } from './eventQuery.js';

/**
 * How long the event log keeps an event (and a digest its claim) unless configured otherwise, in both
 * adapters: long enough for an operator to look back over two weeks and replay.
 */
export const DEFAULT_EVENT_RETENTION_MS = 14 * 86_400_000;

export const PollStateSchema = z.object({
  organizationId: z.string(),
  /** Orders each listing held when last seen (`meta.total` of its first page, even of a walk cut short), by key. */
  listingSizes: z.record(z.string(), z.number().int().nonnegative()),
  /** When each listing was last walked completely and consistently (epoch ms), by key. */
  lastFetchedAt: z.record(z.string(), z.number()),
  /** Pickup dates the last complete walk of each listing covered, by key (state before pendingCoveredAt). */
  lastWindows: z.record(z.string(), z.object({ startDate: z.string(), endDate: z.string() })).default({}),
  /** Listings walked completely at least once (state before pendingCoveredAt). */
  baselined: z.array(z.string()),
  /** Per pickup date (and establishment, when listed apart): the last complete pending walk over it. */
  pendingCoveredAt: z.record(z.string(), z.number()).default({}),
  /** When the first complete pending walk began; orders created since then are never baseline. */
  watchingSince: z.number().nullable().default(null),
  /** The terminal listing being swept, and the page the next cycle resumes at. */
  sweep: z
    .object({ key: z.string(), nextPage: z.number().int().positive(), startedAt: z.number() })
    .nullable()
    .default(null),
  /** When each terminal listing's last complete sweep began, by key. */
  sweptAt: z.record(z.string(), z.number()).default({}),
  /** Sweep pages owed by the pace but not yet spent (the fraction a cycle could not take whole). */
  sweepCredit: z.number().nonnegative().default(0),
  /** Orders that left pending and are not found yet: the statuses earlier cycles looked for them in. */
  lookups: z.record(z.string(), z.array(z.string())).default({}),
  /** Moving average of the look-up requests a cycle needed: part of the next cycle's expected cost. */
  resolutionRequests: z.number().nonnegative().default(0),
  /** Moving average of the requests a whole cycle made: the gap after a cycle pays for one such. */
  cycleRequests: z.number().nonnegative().default(0),
  /** Orders whose record was skipped as malformed and has not read well since, by uuid (bounded). */
  unreadable: z.record(z.string(), UnreadableOrderSchema).default({}),
  /**
   * The organization's establishments as GET /establishments last gave them (fields the spec does not
   * list kept), and when (epoch ms): their closing times drive prep summaries and the cadence.
   */
  establishments: z
    .object({ fetchedAt: z.number(), records: z.array(EstablishmentSchema) })
    .nullable()
    .default(null),
  /**
   * Prep summaries recorded, by `<establishment uuid>|<pickup date>`: their event id, the closing instant
   * (epoch ms) and whether the figures were complete. An order event for one of these is after closing.
   */
  prepSummaries: z
    .record(z.string(), z.object({ eventId: z.string(), closedAt: z.number(), complete: z.boolean() }))
    .default({}),
  /** When this organization's next cycle is due (epoch ms): the pace's decision, read by both runtimes. */
  nextPollAt: z.number().nullable().default(null),
  lastSuccessAt: z.number().nullable(),
  lastAttemptAt: z.number().nullable(),
  consecutiveFailures: z.number().int().nonnegative(),
  /** One line naming the last failure, never a secret. */
  lastError: z.string().nullable(),
});
export type PollState = z.infer<typeof PollStateSchema>;

export function initialPollState(organizationId: string): PollState {
  return {
    organizationId,
    listingSizes: {},
    lastFetchedAt: {},
    lastWindows: {},
    baselined: [],
    pendingCoveredAt: {},
    watchingSince: null,
    sweep: null,
    sweptAt: {},
    sweepCredit: 0,
    lookups: {},
    resolutionRequests: 0,
    cycleRequests: 0,
    unreadable: {},
    establishments: null,
    prepSummaries: {},
    nextPollAt: null,
    lastSuccessAt: null,
    lastAttemptAt: null,
    consecutiveFailures: 0,
    lastError: null,
  };
}

/** One order's new snapshot and the events its transition made, committed together or not at all. */
export interface SnapshotChange {
  /** `version` is the new version; the stored one must be `version - 1` (absent when 1). */
  snapshot: Snapshot;
  events: OrderEvent[];
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

export interface SavePollStateOptions {
  /** The owner whose lease on the organization the save also gives back. */
  releaseLeaseOf?: string;
}

export interface StateStore {
  /** Every snapshot of the organization, in one query. */
  loadSnapshots(organizationId: string): Promise<Map<string, Snapshot>>;
  /** Writes the snapshot (optimistic version check) and its events (each only if new) atomically. */
  commitChange(organizationId: string, change: SnapshotChange): Promise<CommitResult>;
  /**
   * Logs events that belong to no order's snapshot (a prep summary), each only if new, and queues them for
   * delivery like a commit's: one id is one event, however often it is recorded.
   */
  recordEvents(organizationId: string, events: readonly NotifierEvent[]): Promise<RecordResult>;
  /** Events recorded at or after `sinceMs`, oldest first. */
  listEvents(organizationId: string, sinceMs?: number): Promise<StoredEvent[]>;
  /** The organization's events that answer the query: newest first (last committed first), at most its limit. */
  findEvents(organizationId: string, query: EventQuery): Promise<StoredEvent[]>;
  loadPollState(organizationId: string): Promise<PollState | undefined>;
  /**
   * Saves the poll state, leaving the lease as it is. With `releaseLeaseOf`, also gives the lease back if
   * that owner still holds it, in the same write (the end of a cycle: one write instead of two); the state
   * is saved either way, and a lease someone else holds now is left alone.
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
