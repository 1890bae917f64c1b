// The state store on one DynamoDB table (layout in stateTableDefinition.ts): one Query loads an
// organization's snapshots, TransactWriteItems (one, unless over DynamoDB's limits) commit each changed
// order with its events. The lease is a small item of its own, so claiming it and checking it in every
// commit cost a write unit, not the poll state's size; the poll state save is fenced by the lease's
// fencing token instead, in one UpdateItem (the costs compared in docs/aws.md, "The lease and its cost").
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { BudgetCounterStore } from '../../api/budgetCounterStore.js';
import { type Snapshot, SnapshotSchema } from '../../detect/snapshot.js';
import type { NotifierEvent } from '../../events/notifierEvent.js';
import { LeaseLostError, StateStoreError } from '../errors.js';
import { type EventQuery, EventQuerySchema, matchesEventQuery } from '../eventQuery.js';
import { parseInput, parseStored } from '../parseStored.js';
import type { PollState } from '../pollState.js';
import { fitPollState, trimmedPollStateLine } from '../pollStateSize.js';
import {
  POLL_WATCH_BATCH,
  type PollWatch,
  PollWatchSchema,
  type PollWatchStore,
  pollWatchOf,
} from '../pollWatch.js';
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
} from '../stateStore.js';
import {
  eventsToWrite,
  pollStateToWrite,
  readPollState,
  readSnapshot,
  readStoredEvent,
  snapshotToWrite,
} from '../storedRecords.js';
import { DynamoBudgetCounterStore } from './dynamoBudgetCounterStore.js';
import { DynamoMetrics, type DynamoMetricsSnapshot } from './dynamoMetrics.js';
import { StateTableClient } from './stateTableClient.js';
import {
  EVENT_PREFIX,
  eventKey,
  ItemKind,
  leaseKey,
  organizationPk,
  pollStateKey,
  SNAPSHOT_PREFIX,
  snapshotKey,
  ttlSeconds,
  WATCH_ATTRIBUTE,
} from './stateTableKeys.js';
import {
  chunkTransactionItems,
  estimatedItemBytes,
  MAX_TRANSACTION_BYTES,
  MAX_TRANSACTION_ITEMS,
} from './transactionChunks.js';

export interface DynamoStateStoreOptions {
  /** Build it once at module scope and share it: the store never creates or destroys clients. */
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
  /** How long events stay in the log (their TTL). @default DEFAULT_EVENT_RETENTION_MS */
  eventRetentionMs?: number;
  /**
   * Strongly consistent snapshot loads. Off by default: they cost twice the read units, and a stale
   * snapshot can only lead to a version_conflict (nothing wrong is written) thanks to the version check.
   * @default false
   */
  consistentSnapshotReads?: boolean;
  /** Stamps `recordedAt` on events. @default Date.now */
  clock?: () => number;
  /**
   * Told, in one line, of a problem the store worked around: a poll state trimmed to fit its item
   * (pollStateSize.ts). @default console.warn
   */
  warn?: (line: string) => void;
}

const SNAPSHOT_FIELDS = SnapshotSchema.keyof().options;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** An event's order within its commit (absent on items written before it was kept). */
const PositionSchema = z.number().int().default(0);

/** The lease item's attributes (see stateTableKeys.ts). */
const LEASE_NAMES = { '#owner': 'leaseOwner', '#until': 'leaseUntil' };
/** The fencing token's name, on the lease item (the current term's) and on the poll state item (its saver's). */
const TOKEN_NAME = { '#token': 'fenceToken' };
/** The watchdog's copy of the poll state's pace and health, on the lease item (see stateTableKeys.ts). */
const WATCH_NAME = { '#watch': WATCH_ATTRIBUTE };
/** BatchGetItem's unprocessed keys are asked again this many times before the read counts as failed. */
const BATCH_GET_ATTEMPTS = 5;
/** Free (never taken, or given back), run out, or already ours. */
const LEASE_CONDITION = 'attribute_not_exists(#until) OR #until <= :now OR #owner = :owner';
/** Or held by an owner known to be gone. */
const TAKE_OVER_CONDITION = `${LEASE_CONDITION} OR #owner = :gone`;
const LeaseItemSchema = z.object({ leaseOwner: z.string(), leaseUntil: z.number() });
const FenceItemSchema = z.object({ leaseOwner: z.string().optional(), fenceToken: z.number().int() });
/** A fenced commit's condition: the fence's owner holds the lease, run out or not, as nobody took it. */
const FENCE_CONDITION = '#owner = :leaseOwner';
/** A fenced save's condition: no later lease term saved the state (tokens only grow). */
const TOKEN_CONDITION = 'attribute_not_exists(#token) OR #token <= :token';
/**
 * What a fence's check adds to its transaction's size: the lease item it checks, counted by DynamoDB toward
 * the 4 MB. That item holds its keys, its kind, a run id and two numbers; 4 KB bounds it with room.
 */
const FENCE_CHECK_MAX_BYTES = 4 * 1024;
/** A snapshot item's attributes with its TTL (epoch s) back as the Snapshot's expiresAt (epoch ms). */
const fromTtl = (item: Record<string, unknown>) =>
  typeof item.expiresAt === 'number' ? { ...item, expiresAt: item.expiresAt * 1000 } : item;
/** A sort key's part after its prefix: the order uuid of SNAP#…, the event id of EVENT#…. */
const keyAfter = (prefix: string, sk: unknown) =>
  typeof sk === 'string' && sk.startsWith(prefix) ? sk.slice(prefix.length) : undefined;

export class DynamoStateStore implements StateStore, PollWatchStore {
  readonly budgetCounters: BudgetCounterStore;
  readonly #table: StateTableClient;
  readonly #eventRetentionMs: number;
  readonly #consistentSnapshotReads: boolean;
  readonly #clock: () => number;
  readonly #warn: (line: string) => void;
  readonly #metrics = new DynamoMetrics();

  constructor(options: DynamoStateStoreOptions) {
    this.#table = new StateTableClient({
      client: options.client,
      tableName: options.tableName,
      metrics: this.#metrics,
    });
    this.#eventRetentionMs = options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS;
    this.#consistentSnapshotReads = options.consistentSnapshotReads ?? false;
    this.#clock = options.clock ?? Date.now;
    this.#warn = options.warn ?? ((line) => console.warn(line));
    this.budgetCounters = new DynamoBudgetCounterStore(this.#table);
  }

  /** Requests and consumed capacity so far, per operation (a copy). */
  get metrics(): DynamoMetricsSnapshot {
    return this.#metrics.snapshot();
  }

  async loadSnapshots(organizationId: string): Promise<Map<string, Snapshot>> {
    const names: Record<string, string> = { '#pk': 'pk', '#sk': 'sk' };
    for (const [index, field] of SNAPSHOT_FIELDS.entries()) names[`#f${index}`] = field;
    const items = await this.#query('loadSnapshots', organizationId, {
      TableName: this.#table.name,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ProjectionExpression: ['#sk', ...SNAPSHOT_FIELDS.map((_, index) => `#f${index}`)].join(', '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pk': organizationPk(organizationId), ':prefix': SNAPSHOT_PREFIX },
      ConsistentRead: this.#consistentSnapshotReads,
    });
    const snapshots = new Map<string, Snapshot>();
    for (const item of items) {
      const orderUuid = keyAfter(SNAPSHOT_PREFIX, item.sk);
      const snapshot = readSnapshot(fromTtl(item), 'loadSnapshots', organizationId, orderUuid);
      snapshots.set(snapshot.orderUuid, snapshot);
    }
    return snapshots;
  }

  async commitChange(
    organizationId: string,
    change: SnapshotChange,
    fence?: LeaseFence,
  ): Promise<CommitResult> {
    const snapshot = snapshotToWrite(organizationId, change.snapshot);
    const events = eventsToWrite('commitChange', organizationId, change.events);
    const logged = await this.#logEvents('commitChange', organizationId, events, {
      snapshot,
      sourceTimes: change.sourceTimes,
      fence,
    });
    return logged === 'version_conflict'
      ? { outcome: 'version_conflict' }
      : { outcome: 'committed', duplicateEventIds: logged };
  }

  /** Conditional puts, in TransactWriteItems within DynamoDB's limits, retried without those already logged. */
  async recordEvents(
    organizationId: string,
    events: readonly NotifierEvent[],
    fence?: LeaseFence,
  ): Promise<RecordResult> {
    const parsed = eventsToWrite('recordEvents', organizationId, events);
    const logged = await this.#logEvents('recordEvents', organizationId, parsed, { fence });
    return { duplicateEventIds: logged === 'version_conflict' ? [] : logged };
  }

  /**
   * Logs the events, each only if new, with the snapshot (under its version check) when given. The ids of
   * the events the log already held, or `version_conflict` when the snapshot's check failed.
   *
   * One transaction holds at most 100 items and 4 MB (transactionChunks.ts), so many events (150 prep
   * summaries due at once) go in several, one after the other. A failure between them leaves the earlier
   * ones written: the caller's error makes the cycle run again, and the retry writes the rest, the events
   * already logged refused by their condition and reported as duplicates, so each is still logged once.
   * The snapshot goes in the last transaction, after every event of its change: a commit that fits one
   * transaction (the usual one) stays all or nothing; in a longer one a failed version check comes after
   * the earlier events are logged (delivered at most twice rather than lost), and a snapshot is never
   * saved without its events.
   *
   * Fenced, every transaction also checks the lease's owner: a lease lost before the first writes nothing
   * (LeaseLostError); one lost between two leaves the earlier ones, made while it was held, to the run
   * that took it over, which reads them as any cycle's.
   */
  async #logEvents(
    operation: 'commitChange' | 'recordEvents',
    organizationId: string,
    events: readonly NotifierEvent[],
    {
      snapshot,
      sourceTimes = {},
      fence,
    }: {
      snapshot?: Snapshot;
      sourceTimes?: Readonly<Record<string, number>> | undefined;
      fence?: LeaseFence | undefined;
    } = {},
  ): Promise<string[] | 'version_conflict'> {
    const recordedAt = this.#clock();
    const duplicateEventIds: string[] = [];
    // Two copies of one event are one event; the log keeps the first.
    const unique = events.filter((event, index, all) => {
      const first = all.findIndex((other) => other.id === event.id) === index;
      if (!first) duplicateEventIds.push(event.id);
      return first;
    });
    // The position is the event's order in the whole write, whichever transaction carries it.
    const puts = unique.map((event, position) => ({
      event,
      put: this.#eventPut(organizationId, event, recordedAt, position, sourceTimes[event.id]),
    }));
    const snapshotPut = snapshot ? this.#snapshotPut(organizationId, snapshot) : undefined;
    const fenceCheck = fence ? this.#fenceCheck(organizationId, fence) : undefined;
    const chunks = chunkTransactionItems(puts, ({ put }) => estimatedItemBytes(put), {
      reservedItems: snapshotPut ? 1 : 0,
      reservedBytes: snapshotPut ? estimatedItemBytes(snapshotPut) : 0,
      // Every transaction carries the fence's check, and with it the checked lease item's size.
      maxItems: MAX_TRANSACTION_ITEMS - (fenceCheck ? 1 : 0),
      maxBytes: MAX_TRANSACTION_BYTES - (fenceCheck ? FENCE_CHECK_MAX_BYTES : 0),
    });
    for (const [index, chunk] of chunks.entries()) {
      const withSnapshot = index === chunks.length - 1 ? snapshotPut : undefined;
      if (chunk.length === 0 && !withSnapshot) continue;
      const logged = await this.#transact(operation, organizationId, chunk, {
        snapshotPut: withSnapshot,
        fenceCheck,
      });
      if (logged === 'version_conflict') return logged;
      if (logged === 'lease_lost') {
        throw await this.#leaseLost(operation, organizationId, fence as LeaseFence);
      }
      duplicateEventIds.push(...logged);
    }
    return duplicateEventIds;
  }

  /**
   * One transaction of the puts (after the fence's check and the snapshot's put, when given): again
   * without the events the log already holds, until it commits. The ids of those events, or
   * `version_conflict` or `lease_lost` (nothing written).
   */
  async #transact(
    operation: 'commitChange' | 'recordEvents',
    organizationId: string,
    puts: readonly { event: NotifierEvent; put: TransactItem }[],
    {
      snapshotPut,
      fenceCheck,
    }: { snapshotPut?: TransactItem | undefined; fenceCheck?: TransactItem | undefined },
  ): Promise<string[] | 'version_conflict' | 'lease_lost'> {
    const duplicateEventIds: string[] = [];
    let pending = [...puts];
    const head = [...(fenceCheck ? [fenceCheck] : []), ...(snapshotPut ? [snapshotPut] : [])];
    const snapshotAt = snapshotPut ? head.length - 1 : undefined;
    const firstEvent = head.length;
    // Each pass either commits, or learns that some events are already logged and drops them; so it ends.
    while (snapshotPut || pending.length > 0) {
      const refused = await this.#table.send(
        operation,
        organizationId,
        new TransactWriteCommand({
          TransactItems: [...head, ...pending.map(({ put }) => put)],
          ReturnConsumedCapacity: 'TOTAL',
        }),
        {
          onConditionFailed: ({ items, otherFailure, error }) => {
            if (fenceCheck && items.includes(0)) return 'lease_lost' as const;
            if (snapshotAt !== undefined && items.includes(snapshotAt)) return 'version_conflict' as const;
            const logged = items.map((item) => item - firstEvent).filter((position) => position >= 0);
            // Logged events are dropped only from a transaction refused for that alone.
            if (logged.length === 0 || otherFailure) throw error;
            return logged;
          },
        },
      );
      if (refused === 'version_conflict' || refused === 'lease_lost') return refused;
      if (!Array.isArray(refused)) break;
      const logged = pending.filter((_, position) => refused.includes(position));
      duplicateEventIds.push(...logged.map(({ event }) => event.id));
      pending = pending.filter((entry) => !logged.includes(entry));
    }
    return duplicateEventIds;
  }

  async listEvents(organizationId: string, sinceMs?: number): Promise<StoredEvent[]> {
    const stored = await this.#queryEvents('listEvents', organizationId, { sinceMs });
    stored.sort((a, b) => a.stored.recordedAt - b.stored.recordedAt || a.position - b.position);
    return stored.map(({ stored }) => stored);
  }

  /**
   * The log has no index by time, type or order (see stateTableDefinition.ts): the organization's events
   * are read whole (time and types filtered by DynamoDB, which still counts what it reads), then the order
   * is matched, newest first, and cut to the limit here. Events are few and kept 14 days.
   */
  async findEvents(organizationId: string, query: EventQuery): Promise<StoredEvent[]> {
    const parsed = parseInput(EventQuerySchema, query, 'findEvents', organizationId, 'event query');
    const stored = (await this.#queryEvents('findEvents', organizationId, parsed)).filter(({ stored }) =>
      matchesEventQuery(stored, parsed),
    );
    stored.sort((a, b) => b.stored.recordedAt - a.stored.recordedAt || b.position - a.position);
    return stored.slice(0, parsed.limit).map(({ stored }) => stored);
  }

  async #queryEvents(
    operation: 'listEvents' | 'findEvents',
    organizationId: string,
    { sinceMs, types }: Pick<EventQuery, 'sinceMs' | 'types'>,
  ): Promise<{ stored: StoredEvent; position: number }[]> {
    const filters: string[] = [];
    const values: Record<string, unknown> = {
      ':pk': organizationPk(organizationId),
      ':prefix': EVENT_PREFIX,
    };
    if (sinceMs !== undefined) {
      filters.push('#recordedAt >= :since');
      values[':since'] = sinceMs;
    }
    if (types && types.length > 0) {
      const names = types.map((type, index) => {
        values[`:type${index}`] = type;
        return `:type${index}`;
      });
      filters.push(`#eventType IN (${names.join(', ')})`);
    }
    const items = await this.#query(operation, organizationId, {
      TableName: this.#table.name,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ...(filters.length === 0 ? {} : { FilterExpression: filters.join(' AND ') }),
      ProjectionExpression: '#sk, #payload, #recordedAt, #position',
      ExpressionAttributeNames: {
        '#pk': 'pk',
        '#sk': 'sk',
        '#payload': 'payload',
        '#recordedAt': 'recordedAt',
        '#position': 'position',
        ...(types && types.length > 0 ? { '#eventType': 'eventType' } : {}),
      },
      ExpressionAttributeValues: values,
      ConsistentRead: true,
    });
    return items.map((item) => {
      const eventId = keyAfter(EVENT_PREFIX, item.sk);
      const stored = readStoredEvent(item, operation, organizationId, eventId);
      const position = parseStored(
        PositionSchema,
        item.position,
        operation,
        organizationId,
        `event ${eventId}`,
      );
      return { stored, position };
    });
  }

  /**
   * The event `eventId` of the organization's log, or undefined when the log does not hold it (events are
   * kept 14 days). For the operator commands; counted as the event log's reads (`listEvents`).
   */
  async getEvent(organizationId: string, eventId: string): Promise<StoredEvent | undefined> {
    const result = await this.#table.send(
      'getEvent',
      organizationId,
      new GetCommand({
        TableName: this.#table.name,
        Key: eventKey(organizationId, eventId),
        ConsistentRead: true,
        ProjectionExpression: '#payload, #recordedAt',
        ExpressionAttributeNames: { '#payload': 'payload', '#recordedAt': 'recordedAt' },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    if (result.Item === undefined) return undefined;
    return readStoredEvent(result.Item, 'getEvent', organizationId, eventId);
  }

  async loadPollState(organizationId: string): Promise<PollState | undefined> {
    const result = await this.#table.send(
      'loadPollState',
      organizationId,
      new GetCommand({
        TableName: this.#table.name,
        Key: pollStateKey(organizationId),
        ConsistentRead: true,
        ProjectionExpression: '#state',
        ExpressionAttributeNames: { '#state': 'state' },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    // A lease taken before the first save makes the item exist without a state.
    const stored = result.Item?.state;
    if (stored === undefined) return undefined;
    return readPollState(stored, 'loadPollState', organizationId);
  }

  /**
   * An UpdateItem of the state alone, which also removes the lease attributes versions before the lease
   * item left on it. Fenced: the lease item is read first (a lease lost by then writes nothing), and the
   * update is conditioned on the lease's fencing token: refused once a later term saved, however long this
   * run was paused between the two. Not a transaction with the lease item: that would bill the state's
   * size twice (docs/aws.md, "The lease and its cost"). So the lease goes back after the save, in a write
   * of its own, when `releaseLease` asks.
   */
  async savePollState(state: PollState, options?: SavePollStateOptions): Promise<void> {
    const parsed = this.#fitItem(pollStateToWrite(state));
    const organizationId = parsed.organizationId;
    const save: UpdateCommandInput = {
      TableName: this.#table.name,
      Key: pollStateKey(organizationId),
      UpdateExpression: 'SET #kind = :kind, #state = :state REMOVE #staleOwner, #staleUntil',
      ExpressionAttributeNames: {
        '#kind': 'kind',
        '#state': 'state',
        '#staleOwner': LEASE_NAMES['#owner'],
        '#staleUntil': LEASE_NAMES['#until'],
      },
      ExpressionAttributeValues: { ':kind': ItemKind.pollState, ':state': parsed },
      ReturnConsumedCapacity: 'TOTAL',
    };
    const watch = pollWatchOf(parsed);
    if (options === undefined) {
      await this.#table.send('savePollState', organizationId, new UpdateCommand(save));
      await this.#writeWatch(organizationId, watch);
      return;
    }
    const token = await this.#fenceToken(organizationId, options);
    const saved = await this.#table.send(
      'savePollState',
      organizationId,
      new UpdateCommand({
        ...save,
        UpdateExpression: save.UpdateExpression?.replace('SET ', 'SET #token = :token, '),
        ConditionExpression: TOKEN_CONDITION,
        ExpressionAttributeNames: { ...save.ExpressionAttributeNames, ...TOKEN_NAME },
        ExpressionAttributeValues: { ...save.ExpressionAttributeValues, ':token': token },
      }),
      // A later lease term saved already: its state stands, and nothing was written.
      { onConditionFailed: () => false as const },
    );
    if (saved === false) throw await this.#leaseLost('savePollState', organizationId, options);
    if (options.releaseLease) await this.#releaseAfterSave(organizationId, options.leaseOwner, watch);
    else await this.#writeWatch(organizationId, watch, options.leaseOwner);
  }

  /**
   * The watchdog's copy of a save made without giving the lease back (a lease kept between cycles, or no
   * lease): a write of its own, of the small lease item; with `owner`, only while it holds the lease.
   */
  async #writeWatch(organizationId: string, watch: PollWatch, owner?: string): Promise<void> {
    await this.#table.send(
      'releaseLease',
      organizationId,
      new UpdateCommand({
        TableName: this.#table.name,
        Key: leaseKey(organizationId),
        UpdateExpression: 'SET #kind = :kind, #watch = :watch',
        ...(owner === undefined ? {} : { ConditionExpression: '#owner = :owner' }),
        ExpressionAttributeNames: {
          '#kind': 'kind',
          ...WATCH_NAME,
          ...(owner === undefined ? {} : { '#owner': LEASE_NAMES['#owner'] }),
        },
        ExpressionAttributeValues: {
          ':kind': ItemKind.lease,
          ':watch': watch,
          ...(owner === undefined ? {} : { ':owner': owner }),
        },
        ReturnConsumedCapacity: 'TOTAL',
      }),
      // Another run holds the lease now: its save writes the copy.
      { onConditionFailed: () => undefined },
    );
  }

  /**
   * Each organization's pace and health as the watchdog reads them: one BatchGetItem of the lease items,
   * eventually consistent, billed half a read unit each (under 4 KB) whatever the poll state weighs. An
   * organization whose lease item has no copy yet (saved by a version before it, or never) is read from its
   * poll state instead, once, until its next save writes the copy.
   */
  async loadPollWatches(organizationIds: readonly string[]): Promise<Map<string, PollWatch | undefined>> {
    if (organizationIds.length > POLL_WATCH_BATCH) {
      throw new Error(`loadPollWatches takes ${POLL_WATCH_BATCH} organizations at most`);
    }
    const byPk = new Map(organizationIds.map((id) => [organizationPk(id), id]));
    const found = new Map<string, PollWatch>();
    let keys = organizationIds.map((id) => leaseKey(id));
    for (let attempt = 1; keys.length > 0; attempt += 1) {
      if (attempt > BATCH_GET_ATTEMPTS) {
        throw new StateStoreError(
          'loadPollWatches',
          undefined,
          `DynamoDB left ${keys.length} of the lease items unread after ${BATCH_GET_ATTEMPTS} attempts`,
        );
      }
      const result = await this.#table.send(
        'loadPollWatches',
        undefined,
        new BatchGetCommand({
          RequestItems: {
            [this.#table.name]: {
              Keys: keys,
              ProjectionExpression: 'pk, #watch',
              ExpressionAttributeNames: WATCH_NAME,
            },
          },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      for (const item of result.Responses?.[this.#table.name] ?? []) {
        const organizationId = byPk.get(String(item.pk));
        if (organizationId === undefined || item[WATCH_ATTRIBUTE] === undefined) continue;
        found.set(
          organizationId,
          parseStored(PollWatchSchema, item[WATCH_ATTRIBUTE], 'loadPollWatches', organizationId, 'lease'),
        );
      }
      keys = (result.UnprocessedKeys?.[this.#table.name]?.Keys ?? []) as typeof keys;
    }
    const watches = new Map<string, PollWatch | undefined>();
    for (const organizationId of organizationIds) {
      const watch = found.get(organizationId);
      if (watch !== undefined) {
        watches.set(organizationId, watch);
        continue;
      }
      const state = await this.loadPollState(organizationId);
      watches.set(organizationId, state === undefined ? undefined : pollWatchOf(state));
    }
    return watches;
  }

  /**
   * The fencing token of the lease the fence's owner holds (read strongly consistent: one read unit), or
   * LeaseLostError, before anything is written, when it holds it no more.
   */
  async #fenceToken(organizationId: string, fence: LeaseFence): Promise<number> {
    const result = await this.#table.send(
      'savePollState',
      organizationId,
      new GetCommand({
        TableName: this.#table.name,
        Key: leaseKey(organizationId),
        ConsistentRead: true,
        ProjectionExpression: '#owner, #token',
        ExpressionAttributeNames: { '#owner': LEASE_NAMES['#owner'], ...TOKEN_NAME },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    if (result.Item?.leaseOwner !== fence.leaseOwner) {
      throw new LeaseLostError('savePollState', organizationId, fence.leaseOwner, result.Item?.leaseOwner);
    }
    return parseStored(FenceItemSchema, result.Item, 'savePollState', organizationId, 'lease').fenceToken;
  }

  /**
   * Gives the lease back once the state is saved. Its failure does not fail the save, which stands: told in
   * one line, the lease frees itself when it runs out, and until then the next cycles find it held.
   */
  async #releaseAfterSave(organizationId: string, owner: string, watch: PollWatch): Promise<void> {
    try {
      await this.#release(organizationId, owner, watch);
    } catch (error) {
      // A store error only: anything else is a bug, and surfaces.
      if (!(error instanceof StateStoreError)) throw error;
      this.#warn(
        `poll state of organization ${organizationId} saved, but its lease was not given back (${error.message}); it frees itself when it runs out`,
      );
    }
  }

  /**
   * The state within one item (pollStateSize.ts): trimmed, and said so, when it would not fit; refused with
   * PollStateTooLargeError, before any request, when even that is not enough.
   */
  #fitItem(state: PollState): PollState {
    const fitted = fitPollState(state);
    if (fitted.forgotHeardItems.length > 0) this.#warn(trimmedPollStateLine(state.organizationId, fitted));
    return fitted.state;
  }

  async acquireLease(
    organizationId: string,
    owner: string,
    nowMs: number,
    ttlMs: number,
    options: AcquireLeaseOptions = {},
  ): Promise<boolean> {
    const gone = options.takeOverFrom;
    // Every claim, a renewal too, is a new term with a greater fencing token. A counter, and one that starts
    // from the clock's ms when the item is new (or was deleted by hand): above every token handed out before,
    // as no organization is claimed more than once a millisecond.
    const taken = await this.#table.send(
      'acquireLease',
      organizationId,
      new UpdateCommand({
        TableName: this.#table.name,
        Key: leaseKey(organizationId),
        UpdateExpression:
          'SET #kind = :kind, #owner = :owner, #until = :until, #token = if_not_exists(#token, :now) + :one',
        ConditionExpression: gone === undefined ? LEASE_CONDITION : TAKE_OVER_CONDITION,
        ExpressionAttributeNames: { '#kind': 'kind', ...LEASE_NAMES, ...TOKEN_NAME },
        ExpressionAttributeValues: {
          ':kind': ItemKind.lease,
          ':owner': owner,
          ':until': nowMs + ttlMs,
          ':now': nowMs,
          ':one': 1,
          ...(gone === undefined ? {} : { ':gone': gone }),
        },
        ReturnConsumedCapacity: 'TOTAL',
      }),
      { onConditionFailed: () => false as const },
    );
    return taken !== false;
  }

  async leaseHolder(organizationId: string): Promise<Lease | undefined> {
    const result = await this.#table.send(
      'leaseHolder',
      organizationId,
      new GetCommand({
        TableName: this.#table.name,
        Key: leaseKey(organizationId),
        ConsistentRead: true,
        ProjectionExpression: '#owner, #until',
        ExpressionAttributeNames: LEASE_NAMES,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    // Nobody holds it: no item, or the lease item without its holder (given back).
    if (result.Item?.leaseOwner === undefined && result.Item?.leaseUntil === undefined) return undefined;
    const lease = parseStored(LeaseItemSchema, result.Item, 'leaseHolder', organizationId, 'lease');
    return { owner: lease.leaseOwner, until: lease.leaseUntil };
  }

  async releaseLease(organizationId: string, owner: string): Promise<void> {
    await this.#release(organizationId, owner);
  }

  /** Gives the lease back; with `watch`, writes the watchdog's copy in the same update (one write unit). */
  async #release(organizationId: string, owner: string, watch?: PollWatch): Promise<void> {
    await this.#table.send(
      'releaseLease',
      organizationId,
      new UpdateCommand({
        TableName: this.#table.name,
        Key: leaseKey(organizationId),
        // The item and its token stay: a token that only grows needs its counter kept.
        UpdateExpression: `${watch === undefined ? '' : 'SET #watch = :watch '}REMOVE #owner, #until`,
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { ...LEASE_NAMES, ...(watch === undefined ? {} : WATCH_NAME) },
        ExpressionAttributeValues: { ':owner': owner, ...(watch === undefined ? {} : { ':watch': watch }) },
        ReturnConsumedCapacity: 'TOTAL',
      }),
      // Someone else holds it now (ours ran out and was taken), or nobody does: nothing of ours to give back.
      { onConditionFailed: () => undefined },
    );
  }

  /** A transaction's item that writes nothing and holds it to the fence. */
  #fenceCheck(organizationId: string, fence: LeaseFence): TransactItem {
    return {
      ConditionCheck: {
        TableName: this.#table.name,
        Key: leaseKey(organizationId),
        ConditionExpression: FENCE_CONDITION,
        ExpressionAttributeNames: { '#owner': LEASE_NAMES['#owner'] },
        ExpressionAttributeValues: { ':leaseOwner': fence.leaseOwner },
      },
    };
  }

  /** The refusal of a fenced write, naming who holds the lease now (read once more: a rare path). */
  async #leaseLost(operation: string, organizationId: string, fence: LeaseFence): Promise<LeaseLostError> {
    const holder = await this.leaseHolder(organizationId);
    return new LeaseLostError(operation, organizationId, fence.leaseOwner, holder?.owner);
  }

  #snapshotPut(organizationId: string, snapshot: Snapshot) {
    const first = snapshot.version === 1;
    return {
      Put: {
        TableName: this.#table.name,
        Item: {
          ...snapshotKey(organizationId, snapshot.orderUuid),
          kind: ItemKind.snapshot,
          ...snapshot,
          expiresAt: ttlSeconds(snapshot.expiresAt),
        },
        ConditionExpression: first ? 'attribute_not_exists(pk)' : '#version = :previous',
        ...(first
          ? {}
          : {
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':previous': snapshot.version - 1 },
            }),
      },
    };
  }

  #eventPut(
    organizationId: string,
    event: NotifierEvent,
    recordedAt: number,
    position: number,
    sourceTime: number | undefined,
  ) {
    return {
      Put: {
        TableName: this.#table.name,
        Item: {
          ...eventKey(organizationId, event.id),
          kind: ItemKind.event,
          eventId: event.id,
          eventType: event.type,
          organizationId,
          // The event's subject: an order's uuid, or the establishment's for a prep summary. Named before
          // summaries existed; kept so the table's items keep one shape.
          orderUuid: event.subject,
          recordedAt,
          position,
          expiresAt: ttlSeconds(recordedAt + this.#eventRetentionMs),
          payload: JSON.stringify(event),
          // When the change happened at the source: the publisher reads it off the stream (`audience`).
          ...(sourceTime === undefined ? {} : { sourceTime }),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /** One logical Query: every page, in order. */
  async #query(
    operation: 'loadSnapshots' | 'listEvents' | 'findEvents',
    organizationId: string,
    input: QueryCommandInput,
  ): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.#table.send(
        operation,
        organizationId,
        new QueryCommand({ ...input, ExclusiveStartKey: startKey, ReturnConsumedCapacity: 'TOTAL' }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}
