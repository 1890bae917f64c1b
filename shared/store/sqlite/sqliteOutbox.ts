// The local delivery outbox: one row per (subscriber, event) with its attempt count, next attempt time and
// last error. Rows are enqueued inside the commit that logs the event, so no event is logged undelivered.
// A row whose event went stale is folded into a catch-up: delivered, by the catch-up (`folded_into`), in the
// transaction that logs and queues the catch-up. It also keeps which subscribers are disabled, so it serves
// the subscriber-status port too, and the ledger the operator's commands read (deliveryLedger.ts).
import type Database from 'better-sqlite3';
import * as z from 'zod';
import type { DeliveryLedger, SubscriberBacklog } from '../../delivery/deliveryLedger.js';
import type {
  CatchUpCandidates,
  Delivery,
  DeliveryOutbox,
  DeliveryStatus,
  DueDelivery,
  FailedAttempt,
  QueuedEvent,
  QueuedSubscriber,
} from '../../delivery/deliveryOutbox.js';
import { CATCH_UP_CANDIDATES_BATCH, DeliveryStatusSchema } from '../../delivery/deliveryOutbox.js';
import type { DisabledSubscriber } from '../../delivery/subscriberStatus.js';
import { CATCH_UP_EVENT_TYPE, type CatchUpEvent, isCatchUp } from '../../events/catchUpEvent.js';
import { DigestEventSchema } from '../../events/digestEvent.js';
import { type NotifierEvent, NotifierEventSchema } from '../../events/notifierEvent.js';
import { parseStored } from '../parseStored.js';
import { DEFAULT_EVENT_RETENTION_MS } from '../stateStore.js';
import { guarded } from './sqliteErrors.js';

/** Picks the subscribers an event goes to (after their filters). */
export type EventRouter = (event: NotifierEvent) => string[];

const DisabledRowSchema = z.object({
  subscriber_id: z.string(),
  disabled_at: z.number(),
  reason: z.string(),
});

const DeliveryRowSchema = z.object({
  subscriber_id: z.string(),
  event_id: z.string(),
  status: DeliveryStatusSchema,
  attempts: z.number().int(),
  next_attempt_at: z.number(),
  last_error: z.string().nullable(),
  delivered_at: z.number().nullable(),
  folded_into: z.string().nullable(),
});

const QueuedEventRowSchema = z.object({
  event_id: z.string(),
  organization_id: z.string(),
  payload: z.string(),
  source_time: z.number().nullable(),
  next_attempt_at: z.number(),
});

const DueRowSchema = DeliveryRowSchema.extend({ organization_id: z.string(), payload: z.string() });

/** What a delivery carries: an event, or a digest queued for its one subscriber. */
const QueuedEventSchema = z.union([NotifierEventSchema, DigestEventSchema]);

const QueuedRowSchema = z.object({ subscriber_id: z.string(), at: z.number() });

const BacklogRowSchema = z.object({
  subscriber_id: z.string(),
  queued: z.number().int(),
  oldest: z.number(),
});

const COLUMNS =
  'd.subscriber_id, d.event_id, d.status, d.attempts, d.next_attempt_at, d.last_error, d.delivered_at, d.folded_into';

/** A queued delivery of the subscriber with its event, in the order logged; `?2` narrows it further. */
const QUEUED_EVENTS = `SELECT d.event_id, e.organization_id, e.payload, e.source_time, d.next_attempt_at
  FROM deliveries d JOIN events e ON e.id = d.event_id
  WHERE d.subscriber_id = @subscriberId AND d.status = 'queued'`;

export class SqliteOutbox implements DeliveryOutbox, DeliveryLedger {
  readonly #route: EventRouter;
  readonly #statements;
  readonly #disable: (subscriberId: string, reason: string, atMs: number) => void;
  readonly #fold: (
    subscriberId: string,
    organizationId: string,
    catchUp: CatchUpEvent,
    folded: readonly string[],
    atMs: number,
    nextAttemptAt: number,
  ) => number;

  readonly #pausesDb: Database.Database;

  /** @param retentionMs how long a catch-up it logs stays in the event log, as the store's events do */
  constructor(
    db: Database.Database,
    route: EventRouter = () => [],
    retentionMs = DEFAULT_EVENT_RETENTION_MS,
  ) {
    this.#route = route;
    this.#pausesDb = db;
    const statements = {
      enqueue: db.prepare(
        `INSERT OR IGNORE INTO deliveries (subscriber_id, event_id, status, attempts, next_attempt_at, last_error)
         SELECT @subscriberId, @eventId, 'queued', 0, @recordedAt, NULL
         WHERE NOT EXISTS (SELECT 1 FROM disabled_subscribers WHERE subscriber_id = @subscriberId)`,
      ),
      disable: db.prepare(
        `INSERT INTO disabled_subscribers (subscriber_id, disabled_at, reason) VALUES (?, ?, ?)
         ON CONFLICT (subscriber_id) DO NOTHING`,
      ),
      deadenQueued: db.prepare(
        `UPDATE deliveries SET status = 'dead', last_error = ? WHERE subscriber_id = ? AND status = 'queued'`,
      ),
      enable: db.prepare('DELETE FROM disabled_subscribers WHERE subscriber_id = ?'),
      queuedSubscribers: db.prepare(
        `SELECT subscriber_id, MIN(next_attempt_at) AS at FROM deliveries
         WHERE status = 'queued' GROUP BY subscriber_id ORDER BY at, subscriber_id`,
      ),
      disabled: db.prepare(
        'SELECT subscriber_id, disabled_at, reason FROM disabled_subscribers WHERE subscriber_id = ?',
      ),
      listDisabled: db.prepare(
        'SELECT subscriber_id, disabled_at, reason FROM disabled_subscribers ORDER BY 1',
      ),
      due: db.prepare(
        `SELECT ${COLUMNS}, e.organization_id, e.payload
         FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE d.subscriber_id = ? AND d.status = 'queued' AND d.next_attempt_at <= ?
         ORDER BY d.next_attempt_at, e.event_type = '${CATCH_UP_EVENT_TYPE}' DESC, e.seq
         LIMIT ?`,
      ),
      markDelivered: db.prepare(
        `UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = ?
         WHERE subscriber_id = ? AND event_id = ?`,
      ),
      markFailed: db.prepare(
        `UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ?
         WHERE subscriber_id = ? AND event_id = ?`,
      ),
      eventExists: db.prepare('SELECT 1 FROM events WHERE id = ?'),
      requeue: db.prepare(
        `INSERT INTO deliveries (subscriber_id, event_id, status, attempts, next_attempt_at, last_error)
         VALUES (?, ?, 'queued', 0, ?, NULL)
         ON CONFLICT (subscriber_id, event_id) DO UPDATE
         SET status = 'queued', attempts = 0, next_attempt_at = excluded.next_attempt_at, delivered_at = NULL`,
      ),
      listAll: db.prepare(
        `SELECT ${COLUMNS} FROM deliveries d JOIN events e ON e.id = d.event_id ORDER BY e.seq, d.subscriber_id`,
      ),
      // The ids as one JSON array, so one statement serves any number of them.
      listOfEvents: db.prepare(
        `SELECT ${COLUMNS} FROM deliveries d
         WHERE d.event_id IN (SELECT value FROM json_each(?)) ORDER BY d.event_id, d.subscriber_id`,
      ),
      listByStatus: db.prepare(
        `SELECT ${COLUMNS} FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE d.status = ? ORDER BY e.seq, d.subscriber_id`,
      ),
      // Order events changed before the cut-off: by the API's time, else by when they were logged. The
      // oldest batch only: the caller folds it and reads the next.
      staleCandidates: db.prepare(
        `${QUEUED_EVENTS} AND e.event_type LIKE 'order.%'
           AND COALESCE(e.source_time, e.recorded_at) < @changedBefore
         ORDER BY e.seq LIMIT ${CATCH_UP_CANDIDATES_BATCH}`,
      ),
      queuedCatchUps: db.prepare(
        `${QUEUED_EVENTS} AND e.event_type = '${CATCH_UP_EVENT_TYPE}' ORDER BY e.seq`,
      ),
      // Its source time is the first change it stands for: how far behind the subscriber is (backlogs).
      insertCatchUp: db.prepare(
        `INSERT OR IGNORE INTO events
           (id, organization_id, event_type, order_uuid, recorded_at, expires_at, payload, source_time)
         VALUES (@id, @organizationId, '${CATCH_UP_EVENT_TYPE}', @subject, @atMs, @expiresAt, @payload, @firstChangeAt)`,
      ),
      backlogs: db.prepare(
        `SELECT d.subscriber_id, COUNT(*) AS queued, MIN(COALESCE(e.source_time, e.recorded_at)) AS oldest
         FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE d.status = 'queued' GROUP BY d.subscriber_id ORDER BY d.subscriber_id`,
      ),
      resumeBackedOff: db.prepare(
        `UPDATE deliveries SET next_attempt_at = @nowMs
         WHERE subscriber_id = @subscriberId AND status = 'queued' AND attempts > 0 AND next_attempt_at > @nowMs`,
      ),
      markFolded: db.prepare(
        `UPDATE deliveries SET status = 'delivered', delivered_at = @atMs, folded_into = @catchUpId
         WHERE subscriber_id = @subscriberId AND status = 'queued'
           AND event_id IN (SELECT value FROM json_each(@folded))`,
      ),
    };
    this.#statements = statements;
    this.#disable = db.transaction((subscriberId: string, reason: string, atMs: number) => {
      statements.disable.run(subscriberId, atMs, reason);
      statements.deadenQueued.run(`subscriber disabled: ${reason}`, subscriberId);
    }).immediate;
    this.#fold = db.transaction(
      (
        subscriberId: string,
        organizationId: string,
        catchUp: CatchUpEvent,
        folded: readonly string[],
        atMs: number,
        nextAttemptAt: number,
      ) => {
        statements.insertCatchUp.run({
          id: catchUp.id,
          organizationId,
          subject: catchUp.subject,
          atMs,
          expiresAt: atMs + retentionMs,
          payload: JSON.stringify(catchUp),
          firstChangeAt: Date.parse(catchUp.data.first_change_at),
        });
        statements.enqueue.run({ subscriberId, eventId: catchUp.id, recordedAt: nextAttemptAt });
        return statements.markFolded.run({
          subscriberId,
          atMs,
          catchUpId: catchUp.id,
          folded: JSON.stringify(folded),
        }).changes;
      },
    ).immediate;
  }

  /** Queues a newly logged event for each subscriber it routes to; call inside the logging transaction. */
  enqueue(event: NotifierEvent, recordedAt: number): void {
    for (const subscriberId of new Set(this.#route(event))) {
      this.#statements.enqueue.run({ subscriberId, eventId: event.id, recordedAt });
    }
  }

  /** Queues a logged event for one subscriber, whatever the router says; inside the logging transaction. */
  enqueueFor(subscriberId: string, eventId: string, recordedAt: number): void {
    this.#statements.enqueue.run({ subscriberId, eventId, recordedAt });
  }

  async queuedSubscribers(): Promise<QueuedSubscriber[]> {
    return guarded('queuedSubscribers', undefined, () =>
      this.#statements.queuedSubscribers.all().map((raw) => {
        const row = parseRow(QueuedRowSchema, raw, 'queuedSubscribers');
        return { subscriberId: row.subscriber_id, nextAttemptAt: row.at };
      }),
    );
  }

  async catchUpCandidates(subscriberId: string, changedBeforeMs: number): Promise<CatchUpCandidates> {
    return guarded('catchUpCandidates', undefined, () => {
      const read = (raw: unknown): QueuedEvent => {
        const row = parseRow(QueuedEventRowSchema, raw, 'catchUpCandidates');
        const event = parseQueuedEvent(NotifierEventSchema, row, 'catchUpCandidates');
        return {
          eventId: row.event_id,
          organizationId: row.organization_id,
          event,
          sourceTime: row.source_time ?? undefined,
          nextAttemptAt: row.next_attempt_at,
        };
      };
      return {
        stale: this.#statements.staleCandidates
          .all({ subscriberId, changedBefore: changedBeforeMs })
          .map(read),
        catchUps: this.#statements.queuedCatchUps
          .all({ subscriberId })
          .map(read)
          .flatMap((queued) => (isCatchUp(queued.event) ? [{ ...queued, event: queued.event }] : [])),
      };
    });
  }

  async resumeBackedOff(subscriberId: string, nowMs: number): Promise<number> {
    return guarded(
      'resumeBackedOff',
      undefined,
      () => this.#statements.resumeBackedOff.run({ subscriberId, nowMs }).changes,
    );
  }

  async foldIntoCatchUp(
    subscriberId: string,
    organizationId: string,
    catchUp: CatchUpEvent,
    folded: readonly string[],
    timing: { atMs: number; nextAttemptAt: number },
  ): Promise<number> {
    return guarded('foldIntoCatchUp', organizationId, () =>
      this.#fold(subscriberId, organizationId, catchUp, folded, timing.atMs, timing.nextAttemptAt),
    );
  }

  async backlogs(): Promise<SubscriberBacklog[]> {
    return guarded('backlogs', undefined, () =>
      this.#statements.backlogs.all().map((raw) => {
        const row = parseRow(BacklogRowSchema, raw, 'backlogs');
        return { subscriberId: row.subscriber_id, queued: row.queued, oldestChangeAt: row.oldest };
      }),
    );
  }

  /**
   * The subscriber's queued deliveries due at `nowMs`: earliest due first, then a catch-up (due when the
   * first event it stands for was, it tells what came before), then in the order logged.
   */
  async dueDeliveries(subscriberId: string, nowMs: number, limit: number): Promise<DueDelivery[]> {
    return guarded('dueDeliveries', undefined, () =>
      this.#statements.due.all(subscriberId, nowMs, limit).map((raw) => {
        const row = parseRow(DueRowSchema, raw, 'dueDeliveries');
        const event = parseQueuedEvent(QueuedEventSchema, row, 'dueDeliveries');
        return { ...toDelivery(row), organizationId: row.organization_id, event };
      }),
    );
  }

  /** Records a successful attempt; false when there is no such delivery. */
  async markDelivered(subscriberId: string, eventId: string, nowMs: number): Promise<boolean> {
    return guarded(
      'markDelivered',
      undefined,
      () => this.#statements.markDelivered.run(nowMs, subscriberId, eventId).changes === 1,
    );
  }

  /** Records a failed attempt: queued again at `nextAttemptAt`, or a dead letter keeping its error. */
  async markFailed(subscriberId: string, eventId: string, failure: FailedAttempt): Promise<boolean> {
    return guarded('markFailed', undefined, () => {
      const result = this.#statements.markFailed.run(
        failure.dead ? 'dead' : 'queued',
        failure.attempts,
        failure.nextAttemptAt,
        failure.error,
        subscriberId,
        eventId,
      );
      return result.changes === 1;
    });
  }

  /**
   * Queues the event for the subscriber again from scratch (replay): a dead letter, a delivered event, or
   * one the subscriber never had. The last error is kept for the record. False when the event is unknown.
   */
  async requeue(subscriberId: string, eventId: string, nowMs: number): Promise<boolean> {
    return guarded('requeue', undefined, () => {
      if (!this.#statements.eventExists.get(eventId)) return false;
      this.#statements.requeue.run(subscriberId, eventId, nowMs);
      return true;
    });
  }

  async disabled(subscriberId: string): Promise<DisabledSubscriber | undefined> {
    return guarded('disabled', undefined, () => {
      const raw = this.#statements.disabled.get(subscriberId);
      return raw === undefined ? undefined : toDisabled(raw);
    });
  }

  /**
   * Stops all delivery to a subscriber that is gone: its queued deliveries become dead letters (replay
   * can send them once it is enabled again) and nothing new is queued for it.
   */
  async disableSubscriber(subscriberId: string, reason: string, atMs: number): Promise<DisabledSubscriber> {
    return guarded('disableSubscriber', undefined, () => {
      this.#disable(subscriberId, reason, atMs);
      return toDisabled(this.#statements.disabled.get(subscriberId));
    });
  }

  /** Lets events reach the subscriber again; true when it was disabled. */
  async enableSubscriber(subscriberId: string): Promise<boolean> {
    return guarded(
      'enableSubscriber',
      undefined,
      () => this.#statements.enable.run(subscriberId).changes === 1,
    );
  }

  /** Records the subscriber as waiting on a person; a subscriber already paused keeps its first time. */
  async pauseSubscriber(subscriberId: string, reason: string, atMs: number): Promise<void> {
    guarded('pauseSubscriber', undefined, () =>
      this.#pausesDb
        .prepare<[string, number, string]>(
          `INSERT INTO paused_subscribers (subscriber_id, paused_at, reason) VALUES (?, ?, ?)
           ON CONFLICT (subscriber_id) DO UPDATE SET reason = excluded.reason`,
        )
        .run(subscriberId, atMs, reason),
    );
  }

  async resumeSubscriber(subscriberId: string): Promise<void> {
    guarded('resumeSubscriber', undefined, () =>
      this.#pausesDb
        .prepare<[string]>('DELETE FROM paused_subscribers WHERE subscriber_id = ?')
        .run(subscriberId),
    );
  }

  /** The subscribers waiting on a person, why (with what to do), and since when. */
  async pausedSubscribers(): Promise<DisabledSubscriber[]> {
    return guarded('pausedSubscribers', undefined, () =>
      this.#pausesDb
        .prepare<[], { subscriber_id: string; paused_at: number; reason: string }>(
          'SELECT subscriber_id, paused_at, reason FROM paused_subscribers ORDER BY subscriber_id',
        )
        .all()
        .map((row) => ({ subscriberId: row.subscriber_id, reason: row.reason, disabledAt: row.paused_at })),
    );
  }

  async disabledSubscribers(): Promise<DisabledSubscriber[]> {
    return guarded('disabledSubscribers', undefined, () =>
      this.#statements.listDisabled.all().map(toDisabled),
    );
  }

  async listDeliveries(filter: { status?: DeliveryStatus } = {}): Promise<Delivery[]> {
    return guarded('listDeliveries', undefined, () => {
      const rows =
        filter.status === undefined
          ? this.#statements.listAll.all()
          : this.#statements.listByStatus.all(filter.status);
      return rows.map((raw) => toDelivery(parseRow(DeliveryRowSchema, raw, 'listDeliveries')));
    });
  }

  /** Each of these events' deliveries, one per subscriber it was queued for, by subscriber id. */
  async deliveriesOf(eventIds: readonly string[]): Promise<Delivery[]> {
    if (eventIds.length === 0) return [];
    return guarded('deliveriesOf', undefined, () =>
      this.#statements.listOfEvents
        .all(JSON.stringify(eventIds))
        .map((raw) => toDelivery(parseRow(DeliveryRowSchema, raw, 'deliveriesOf'))),
    );
  }
}

function toDelivery(row: z.infer<typeof DeliveryRowSchema>): Delivery {
  return {
    subscriberId: row.subscriber_id,
    eventId: row.event_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    ...(row.folded_into === null ? {} : { foldedInto: row.folded_into }),
  };
}

function toDisabled(raw: unknown): DisabledSubscriber {
  const row = parseRow(DisabledRowSchema, raw, 'disabledSubscribers');
  return { subscriberId: row.subscriber_id, disabledAt: row.disabled_at, reason: row.reason };
}

function parseRow<T>(schema: z.ZodType<T>, raw: unknown, operation: string): T {
  return parseStored(schema, raw, operation, undefined, 'outbox row');
}

/** The event a queued row carries, named by its id and organization when it is spoiled. */
function parseQueuedEvent<T>(
  schema: z.ZodType<T>,
  row: { payload: unknown; organization_id: string; event_id: string },
  operation: string,
): T {
  return parseStored(schema, row.payload, operation, row.organization_id, `event ${row.event_id}`);
}
