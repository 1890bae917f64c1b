// The per-token request budget in the local state file: an exact sliding log with one row per counted
// request time, each reservation or release decided and recorded in one IMMEDIATE transaction and each
// postpone in one UPDATE, so runs sharing the file never exceed it together.
import type Database from 'better-sqlite3';
import {
  type BudgetCounterStore,
  type BudgetReservation,
  decideReservation,
  type ReservationRequest,
} from '../../api/budgetCounterStore.js';
import { guarded } from './sqliteErrors.js';

type Reserve = (
  key: string,
  nowMs: number,
  request: ReservationRequest,
  limit: number,
  windowMs: number,
) => BudgetReservation;

export class SqliteBudgetCounterStore implements BudgetCounterStore {
  readonly #reserve: Reserve;
  readonly #release: (key: string, countAtMs: number, count: number) => void;
  readonly #postpone: (key: string, fromMs: number, toMs: number, count: number) => number;
  readonly #remaining: (key: string, nowMs: number, limit: number, windowMs: number) => number;
  readonly #pause: (key: string, untilMs: number) => void;

  constructor(db: Database.Database) {
    const pausedUntil = db.prepare<[string], { paused_until: number }>(
      'SELECT paused_until FROM budget_pauses WHERE key = ?',
    );
    const forget = db.prepare('DELETE FROM budget_requests WHERE key = ? AND at <= ?');
    // Every time still in the window, future ones (reservations counted later) included, oldest first.
    const recent = db
      .prepare<[string, number], number>(
        'SELECT at FROM budget_requests WHERE key = ? AND at > ? ORDER BY at',
      )
      .pluck();
    const count = db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM budget_requests WHERE key = ? AND at > ?',
    );
    const record = db.prepare('INSERT INTO budget_requests (key, at) VALUES (?, ?)');
    // Rows are identical but for their rowid: delete that many of them, whichever.
    const unrecord = db.prepare(
      `DELETE FROM budget_requests
       WHERE rowid IN (SELECT rowid FROM budget_requests WHERE key = ? AND at = ? LIMIT ?)`,
    );
    const move = db.prepare(
      `UPDATE budget_requests SET at = ?
       WHERE rowid IN (SELECT rowid FROM budget_requests WHERE key = ? AND at = ? LIMIT ?)`,
    );
    const pause = db.prepare(
      `INSERT INTO budget_pauses (key, paused_until) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET paused_until = max(paused_until, excluded.paused_until)`,
    );

    const pausedAt = (key: string, nowMs: number) => {
      const until = pausedUntil.get(key)?.paused_until ?? 0;
      return until > nowMs ? until : undefined;
    };
    const reserve = db.transaction<Reserve>((key, nowMs, request, limit, windowMs) => {
      const paused = pausedAt(key, nowMs);
      if (paused !== undefined) return { granted: 0, retryAtMs: paused };
      forget.run(key, nowMs - windowMs);
      const times = recent.all(key, nowMs - windowMs);
      const reservation = decideReservation(times, nowMs, request, limit, windowMs);
      for (let i = 0; i < reservation.granted; i += 1) record.run(key, request.countAtMs);
      return reservation;
    });
    const release = db.transaction((key: string, countAtMs: number, n: number) => {
      unrecord.run(key, countAtMs, n);
    });
    this.#reserve = (...args) => guarded('budget', undefined, () => reserve.immediate(...args));
    this.#release = (...args) => guarded('budget', undefined, () => release.immediate(...args));
    // One statement, so one write lock: a reservation that forgot the rows first leaves none to move.
    this.#postpone = (key, fromMs, toMs, n) =>
      guarded('budget', undefined, () => move.run(toMs, key, fromMs, n).changes);
    this.#remaining = (key, nowMs, limit, windowMs) =>
      guarded('budget', undefined, () => {
        if (pausedAt(key, nowMs) !== undefined) return 0;
        return Math.max(0, limit - (count.get(key, nowMs - windowMs)?.n ?? 0));
      });
    this.#pause = (key, untilMs) => {
      guarded('budget', undefined, () => pause.run(key, untilMs));
    };
  }

  async reserve(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<BudgetReservation> {
    return this.#reserve(key, nowMs, request, limit, windowMs);
  }

  async release(key: string, countAtMs: number, count: number): Promise<void> {
    if (count > 0) this.#release(key, countAtMs, count);
  }

  async postpone(key: string, fromMs: number, toMs: number, count: number): Promise<number> {
    return count > 0 ? this.#postpone(key, fromMs, toMs, count) : 0;
  }

  async remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    return this.#remaining(key, nowMs, limit, windowMs);
  }

  async pauseUntil(key: string, untilMs: number): Promise<void> {
    this.#pause(key, untilMs);
  }
}
