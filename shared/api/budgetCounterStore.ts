// The port behind the per-token request budget, and its in-memory adapter. A shared adapter (DynamoDB)
// lets several Lambda invocations draw on one budget.

export type BudgetTake = { granted: true; remaining: number } | { granted: false; retryAtMs: number };

export interface BudgetCounterStore {
  /** Atomically records one request under `key` if fewer than `limit` were made in the window ending now. */
  tryTake(key: string, nowMs: number, limit: number, windowMs: number): Promise<BudgetTake>;
  /** Requests still available under `key` in the window ending now. */
  remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number>;
  /** Grants nothing under `key` before `untilMs` (the server told us to back off). */
  pauseUntil(key: string, untilMs: number): Promise<void>;
}

/** A sliding log of request times per key: exact, and fine for one process. */
export class InMemoryBudgetCounterStore implements BudgetCounterStore {
  readonly #log = new Map<string, number[]>();
  readonly #pausedUntil = new Map<string, number>();

  async tryTake(key: string, nowMs: number, limit: number, windowMs: number): Promise<BudgetTake> {
    const paused = this.#pausedUntil.get(key) ?? 0;
    if (paused > nowMs) return { granted: false, retryAtMs: paused };
    const log = this.#recent(key, nowMs, windowMs);
    if (log.length >= limit) {
      // The oldest request in the window is the first to fall out of it.
      return { granted: false, retryAtMs: (log[log.length - limit] ?? nowMs) + windowMs };
    }
    log.push(nowMs);
    return { granted: true, remaining: limit - log.length };
  }

  async remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    if ((this.#pausedUntil.get(key) ?? 0) > nowMs) return 0;
    return Math.max(0, limit - this.#recent(key, nowMs, windowMs).length);
  }

  async pauseUntil(key: string, untilMs: number): Promise<void> {
    this.#pausedUntil.set(key, Math.max(untilMs, this.#pausedUntil.get(key) ?? 0));
  }

  #recent(key: string, nowMs: number, windowMs: number): number[] {
    const log = (this.#log.get(key) ?? []).filter((at) => at > nowMs - windowMs);
    this.#log.set(key, log);
    return log;
  }
}
