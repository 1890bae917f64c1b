// The local delivery outbox: one row per (subscriber, event) with its attempt count, next attempt time and
// last error. Rows are enqueued inside the commit that logs the event, so no event is logged undelivered.
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { type OrderEvent, OrderEventSchema } from '../../events/orderEvent.js';
import { StateStoreError } from '../errors.js';

export const DeliveryStatusSchema = z.enum(['queued', 'delivered', 'dead']);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

export interface Delivery {
  subscriberId: string;
  eventId: string;
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (epoch ms); meaningful while queued. */
  nextAttemptAt: number;
  /** The last failure, kept on dead letters and after a later success alike. */
  lastError: string | null;
  deliveredAt: number | null;
}

/** A delivery that is due, with the event it carries. */
export interface DueDelivery extends Delivery {
  organizationId: string;
  event: OrderEvent;
}

export interface FailedAttempt {
  /** Attempts made, counting the one that just failed. */
  attempts: number;
  nextAttemptAt: number;
  error: string;
  /** No more attempts: keep it as a dead letter. */
  dead: boolean;
}

export interface DisabledSubscriber {
  subscriberId: string;
  disabledAt: number;
  reason: string;
}

const DisabledRowSchema = z.object({
  subscriber_id: z.string(),
  disabled_at: z.number(),
  reason: z.string(),
});

/** Picks the subscribers an event goes to (after their filters). */
export type EventRouter = (event: OrderEvent) => string[];

const DeliveryRowSchema = z.object({
  subscriber_id: z.string(),
  event_id: z.string(),
  status: DeliveryStatusSchema,
  attempts: z.number().int(),
  next_attempt_at: z.number(),
  last_error: z.string().nullable(),
  delivered_at: z.number().nullable(),
});

const DueRowSchema = DeliveryRowSchema.extend({ organization_id: z.string(), payload: z.string() });

const COLUMNS =
  'd.subscriber_id, d.event_id, d.status, d.attempts, d.next_attempt_at, d.last_error, d.delivered_at';

export class SqliteOutbox {
  readonly #route: EventRouter;
  readonly #statements;

  constructor(db: Database.Database, route: EventRouter = () => []) {
    this.#route = route;
    this.#statements = {
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
      nextDue: db.prepare<[], { at: number | null }>(
        "SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status = 'queued'",
      ),
      listDisabled: db.prepare(
        'SELECT subscriber_id, disabled_at, reason FROM disabled_subscribers ORDER BY 1',
      ),
      due: db.prepare(
        `SELECT ${COLUMNS}, e.organization_id, e.payload
         FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE d.status = 'queued' AND d.next_attempt_at <= ?
         ORDER BY d.next_attempt_at, e.seq, d.subscriber_id
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
      listByStatus: db.prepare(
        `SELECT ${COLUMNS} FROM deliveries d JOIN events e ON e.id = d.event_id
         WHERE d.status = ? ORDER BY e.seq, d.subscriber_id`,
      ),
    };
  }

  /** Queues a newly logged event for each subscriber it routes to; call inside the logging transaction. */
  enqueue(event: OrderEvent, recordedAt: number): void {
    for (const subscriberId of new Set(this.#route(event))) {
      this.#statements.enqueue.run({ subscriberId, eventId: event.id, recordedAt });
    }
  }

  /** Queued deliveries whose next attempt is due at `nowMs`, the longest-waiting first. */
  due(nowMs: number, limit: number): DueDelivery[] {
    const rows = this.#statements.due.all(nowMs, limit);
    return rows.map((raw) => {
      const row = parseRow(DueRowSchema, raw);
      const event = parseRow(OrderEventSchema, JSON.parse(row.payload));
      return { ...toDelivery(row), organizationId: row.organization_id, event };
    });
  }

  markDelivered(subscriberId: string, eventId: string, nowMs: number): boolean {
    const result = this.#statements.markDelivered.run(nowMs, subscriberId, eventId);
    return result.changes === 1;
  }

  markFailed(subscriberId: string, eventId: string, failure: FailedAttempt): boolean {
    const result = this.#statements.markFailed.run(
      failure.dead ? 'dead' : 'queued',
      failure.attempts,
      failure.nextAttemptAt,
      failure.error,
      subscriberId,
      eventId,
    );
    return result.changes === 1;
  }

  /**
   * Queues the event for the subscriber again from scratch (replay): a dead letter, a delivered event, or
   * one the subscriber never had. The last error is kept for the record. False when the event is unknown.
   */
  requeue(subscriberId: string, eventId: string, nowMs: number): boolean {
    if (!this.#statements.eventExists.get(eventId)) return false;
    this.#statements.requeue.run(subscriberId, eventId, nowMs);
    return true;
  }

  /**
   * Stops all delivery to a subscriber that is gone: its queued deliveries become dead letters (replay
   * can send them once it is enabled again) and nothing new is queued for it. Call inside a transaction.
   */
  disableSubscriber(subscriberId: string, reason: string, nowMs: number): void {
    this.#statements.disable.run(subscriberId, nowMs, reason);
    this.#statements.deadenQueued.run(`subscriber disabled: ${reason}`, subscriberId);
  }

  /** When the earliest queued delivery is due (epoch ms), or undefined when nothing is queued. */
  nextDueAt(): number | undefined {
    return this.#statements.nextDue.get()?.at ?? undefined;
  }

  /** Lets events reach the subscriber again; true when it was disabled. */
  enableSubscriber(subscriberId: string): boolean {
    return this.#statements.enable.run(subscriberId).changes === 1;
  }

  disabledSubscribers(): DisabledSubscriber[] {
    return this.#statements.listDisabled.all().map((raw) => {
      const row = parseRow(DisabledRowSchema, raw);
      return { subscriberId: row.subscriber_id, disabledAt: row.disabled_at, reason: row.reason };
    });
  }

  list(filter: { status?: DeliveryStatus } = {}): Delivery[] {
    const rows =
      filter.status === undefined
        ? this.#statements.listAll.all()
        : this.#statements.listByStatus.all(filter.status);
    return rows.map((raw) => toDelivery(parseRow(DeliveryRowSchema, raw)));
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
  };
}

function parseRow<T>(schema: z.ZodType<T>, raw: unknown): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new StateStoreError('outbox', undefined, `malformed delivery row: ${parsed.error.message}`, {
    cause: parsed.error,
  });
}
