// The per-token request budget in the local state file: an exact sliding log of granted request times,
// decided and recorded in one IMMEDIATE transaction, so runs sharing the file never exceed it together.
import type Database from 'better-sqlite3';
import type { BudgetCounterStore, BudgetTake } from '../../api/budgetCounterStore.js';

export class SqliteBudgetCounterStore implements BudgetCounterStore {
  readonly #take: (key: string, nowMs: number, limit: number, windowMs: number) => BudgetTake;
  readonly #remaining: (key: string, nowMs: number, limit: number, windowMs: number) => number;
  readonly #pause: (key: string, untilMs: number) => void;

  constructor(db: Database.Database) {
    const pausedUntil = db.prepare<[string], { paused_until: number }>(
      'SELECT paused_until FROM budget_pauses WHERE key = ?',
    );
    const forget = db.prepare('DELETE FROM budget_requests WHERE key = ? AND at <= ?');
    const count = db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM budget_requests WHERE key = ? AND at > ?',
    );
    // The limit-th most recent request: the one that must leave the window before another fits.
    const blocking = db.prepare<[string, number, number], { at: number }>(
      'SELECT at FROM budget_requests WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
    );
    const record = db.prepare('INSERT INTO budget_requests (key, at) VALUES (?, ?)');
    const pause = db.prepare(
      `INSERT INTO budget_pauses (key, paused_until) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET paused_until = max(paused_until, excluded.paused_until)`,
    );

    const pausedAt = (key: string, nowMs: number) => {
      const until = pausedUntil.get(key)?.paused_until ?? 0;
      return until > nowMs ? until : undefined;
    };
    const take = db.transaction((key: string, nowMs: number, limit: number, windowMs: number): BudgetTake => {
      const paused = pausedAt(key, nowMs);
      if (paused !== undefined) return { granted: false, retryAtMs: paused };
      forget.run(key, nowMs - windowMs);
      const used = count.get(key, nowMs - windowMs)?.n ?? 0;
      if (used >= limit) {
        const oldest = blocking.get(key, nowMs - windowMs, limit - 1)?.at ?? nowMs;
        return { granted: false, retryAtMs: oldest + windowMs };
      }
      record.run(key, nowMs);
      return { granted: true, remaining: limit - used - 1 };
    });
    this.#take = (...args) => take.immediate(...args);
    this.#remaining = (key, nowMs, limit, windowMs) => {
      if (pausedAt(key, nowMs) !== undefined) return 0;
      return Math.max(0, limit - (count.get(key, nowMs - windowMs)?.n ?? 0));
    };
    this.#pause = (key, untilMs) => {
      pause.run(key, untilMs);
    };
  }

  async tryTake(key: string, nowMs: number, limit: number, windowMs: number): Promise<BudgetTake> {
    return this.#take(key, nowMs, limit, windowMs);
  }

  async remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    return this.#remaining(key, nowMs, limit, windowMs);
  }

  async pauseUntil(key: string, untilMs: number): Promise<void> {
    this.#pause(key, untilMs);
  }
}
