// The per-token request budget in DynamoDB, shared by every Lambda invocation that polls with a token.
//
// Algorithm: an exact sliding log with optimistic concurrency. One item per key (BUDGET#<key> / LOG) holds
// the sorted times of the requests counted in the window (at most `limit` of them; a reservation is
// counted at a time that may lie a little in the future), `pausedUntil`, and a `revision`. Every
// reservation (a request outside a cycle's is a reservation of one) reads the item (strongly consistent),
// decides with the shared decideReservation, and writes the new log only under `revision = :read`; a
// writer that lost the race re-reads and decides again. A release removes unused reserved times the same
// way, and a postpone moves reserved times later. A conflict always means another caller made progress,
// and callers stop writing once the window is full, so the retries are bounded. Why not fixed windows with
// a weighted estimate: that estimate assumes requests were spread evenly over the previous window, so a
// burst at its end followed by one at the start of the next can exceed the limit within 60 s, which is
// exactly what the API counts. This costs one read and one write per reservation (however many requests it
// holds) and never exceeds. Refusals, and releases with nothing to give back, write nothing.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import {
  type BudgetCounterStore,
  type BudgetReservation,
  decideReservation,
  type ReservationRequest,
} from '../../api/budgetCounterStore.js';
import { StoreContentionError } from '../errors.js';
import { parseStored } from '../parseStored.js';
import type { StateTableClient } from './stateTableClient.js';
import { budgetKey, ItemKind, ttlSeconds } from './stateTableKeys.js';

/** Enough for dozens of simultaneous takers of one token; beyond that something is wrong. */
const MAX_ATTEMPTS = 25;
/** Idle budget items outlive their last use by a day, then TTL removes them. */
const IDLE_TTL_MS = 86_400_000;

const BudgetItemSchema = z.object({
  times: z.array(z.number()).default([]),
  pausedUntil: z.number().default(0),
  revision: z.number().int().default(0),
});
type BudgetItem = z.infer<typeof BudgetItemSchema>;

export class DynamoBudgetCounterStore implements BudgetCounterStore {
  readonly #table: StateTableClient;

  /** On the state table, counted under `budget` in its metrics. */
  constructor(table: StateTableClient) {
    this.#table = table;
  }

  async release(key: string, countAtMs: number, count: number): Promise<void> {
    if (count > 0) await this.#moveTimes(key, countAtMs, count, undefined);
  }

  async postpone(key: string, fromMs: number, toMs: number, count: number): Promise<number> {
    return count > 0 ? this.#moveTimes(key, fromMs, count, toMs) : 0;
  }

  /**
   * Takes up to `count` times equal to `at` out of the log, putting them back at `to` when given (a
   * postpone) or not (a release), in one conditional write; again if we lost a race. How many it found.
   */
  async #moveTimes(key: string, at: number, count: number, to: number | undefined): Promise<number> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const item = await this.#read(key);
      const kept = withoutTimes(sortedTimes(item), at, count);
      const found = item.times.length - kept.length;
      if (found === 0) return 0;
      const times =
        to === undefined ? kept : [...kept, ...Array<number>(found).fill(to)].sort((a, b) => a - b);
      // Neither is told the window; the idle TTL of a day past the latest time outlasts any window.
      if (await this.#writeLog(key, item.revision, times, Math.max(at, times.at(-1) ?? at))) return found;
    }
    throw new StoreContentionError('budget', undefined, `${MAX_ATTEMPTS} conflicting writers on one budget`);
  }

  async remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    const item = await this.#read(key);
    if (item.pausedUntil > nowMs) return 0;
    return Math.max(0, limit - recentTimes(item, nowMs, windowMs).length);
  }

  async pauseUntil(key: string, untilMs: number): Promise<void> {
    // Bumping the revision makes a reservation that read the log before the pause retry and see it.
    await this.#table.send(
      'budget',
      undefined,
      new UpdateCommand({
        TableName: this.#table.name,
        Key: budgetKey(key),
        UpdateExpression: 'SET #kind = :kind, #paused = :until, #ttl = :ttl ADD #revision :one',
        ConditionExpression: 'attribute_not_exists(#paused) OR #paused < :until',
        ExpressionAttributeNames: {
          '#kind': 'kind',
          '#paused': 'pausedUntil',
          '#ttl': 'expiresAt',
          '#revision': 'revision',
        },
        ExpressionAttributeValues: {
          ':kind': ItemKind.budget,
          ':until': untilMs,
          ':ttl': ttlSeconds(untilMs + IDLE_TTL_MS),
          ':one': 1,
        },
        ReturnConsumedCapacity: 'TOTAL',
      }),
      // A pause at least as long is already in place: never shorten it.
      { onConditionFailed: () => undefined },
    );
  }

  /** One read, the shared decision, and one conditional write of the new log; again if we lost a race. */
  async reserve(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<BudgetReservation> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const item = await this.#read(key);
      if (item.pausedUntil > nowMs) return { granted: 0, retryAtMs: item.pausedUntil };
      const recent = recentTimes(item, nowMs, windowMs);
      const reservation = decideReservation(recent, nowMs, request, limit, windowMs);
      if (reservation.granted === 0) return reservation;
      const times = [...recent, ...Array<number>(reservation.granted).fill(request.countAtMs)].sort(
        (a, b) => a - b,
      );
      // The log must outlive its latest time by a window: that is when its last entry stops counting.
      const keepUntilMs = (times.at(-1) ?? nowMs) + windowMs;
      if (await this.#writeLog(key, item.revision, times, keepUntilMs)) return reservation;
    }
    throw new StoreContentionError('budget', undefined, `${MAX_ATTEMPTS} conflicting writers on one budget`);
  }

  async #read(key: string): Promise<BudgetItem> {
    const { Item: item } = await this.#table.send(
      'budget',
      undefined,
      new GetCommand({
        TableName: this.#table.name,
        Key: budgetKey(key),
        ConsistentRead: true,
        ProjectionExpression: '#times, #paused, #revision',
        ExpressionAttributeNames: { '#times': 'times', '#paused': 'pausedUntil', '#revision': 'revision' },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return parseStored(BudgetItemSchema, item ?? {}, 'budget', undefined, `budget item ${key}`);
  }

  /** Writes the log if nobody else did since we read revision `revision`; false when someone did. */
  async #writeLog(key: string, revision: number, times: number[], keepUntilMs: number): Promise<boolean> {
    const written = await this.#table.send(
      'budget',
      undefined,
      new UpdateCommand({
        TableName: this.#table.name,
        Key: budgetKey(key),
        UpdateExpression: 'SET #kind = :kind, #times = :times, #revision = :next, #ttl = :ttl',
        ConditionExpression: revision === 0 ? 'attribute_not_exists(#revision)' : '#revision = :read',
        ExpressionAttributeNames: {
          '#kind': 'kind',
          '#times': 'times',
          '#revision': 'revision',
          '#ttl': 'expiresAt',
        },
        ExpressionAttributeValues: {
          ':kind': ItemKind.budget,
          ':times': times,
          ':next': revision + 1,
          ':ttl': ttlSeconds(keepUntilMs + IDLE_TTL_MS),
          ...(revision === 0 ? {} : { ':read': revision }),
        },
        ReturnConsumedCapacity: 'TOTAL',
      }),
      { onConditionFailed: () => false as const },
    );
    return written !== false;
  }
}

function sortedTimes(item: BudgetItem): number[] {
  return [...item.times].sort((a, b) => a - b);
}

/** The requests still counted in the window ending at `nowMs` (future ones included), oldest first. */
function recentTimes(item: BudgetItem, nowMs: number, windowMs: number): number[] {
  return sortedTimes(item).filter((at) => at > nowMs - windowMs);
}

/** `times` less up to `count` entries equal to `at`, order kept. */
function withoutTimes(times: readonly number[], at: number, count: number): number[] {
  let toRemove = count;
  return times.filter((time) => {
    if (time !== at || toRemove <= 0) return true;
    toRemove -= 1;
    return false;
  });
}
