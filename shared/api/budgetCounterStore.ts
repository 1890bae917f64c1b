// The port behind the per-token request budget, its in-memory adapter, and the reservation rule every
// adapter shares. A shared adapter (DynamoDB) lets several Lambda invocations draw on one budget.

/** A poll cycle's request budget, taken in one write instead of one per request. */
export interface ReservationRequest {
  /** Grant nothing unless at least this many fit. */
  atLeast: number;
  /** Grant up to this many. */
  atMost: number;
  /**
   * When the reserved requests count as made. Later than now: they are sent over the next seconds, and the
   * server counts each when it arrives, so counting them early would let the window free them too soon.
   */
  countAtMs: number;
}

export type BudgetReservation = { granted: number } | { granted: 0; retryAtMs: number };

export interface BudgetCounterStore {
  /** Atomically records between `atLeast` and `atMost` requests at `countAtMs`, as many as the window allows. */
  reserve(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<BudgetReservation>;
  /** Gives back `count` requests of the reservation counted at `countAtMs` that were not used. */
  release(key: string, countAtMs: number, count: number): Promise<void>;
  /**
   * Counts up to `count` requests counted at `fromMs` at the later `toMs` instead, in one write, and says
   * how many it moved. Safe for those it finds: every decision until then counted them, and later ones see
   * them at `toMs`. One not found had left the window and was forgotten by a reservation that did not count
   * it, so that room may be taken. (Giving them back and reserving again would let another user of the
   * token take the room in between.)
   */
  postpone(key: string, fromMs: number, toMs: number, count: number): Promise<number>;
  /** Requests still available under `key` in the window ending now. */
  remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number>;
  /** Grants nothing under `key` before `untilMs` (the server told us to back off). */
  pauseUntil(key: string, untilMs: number): Promise<void>;
}

/** A sliding log of request times per key: exact, and fine for one process. */
export class InMemoryBudgetCounterStore implements BudgetCounterStore {
  readonly #log = new Map<string, number[]>();
  readonly #pausedUntil = new Map<string, number>();

  async release(key: string, countAtMs: number, count: number): Promise<void> {
    const log = this.#log.get(key) ?? [];
    for (let i = 0; i < count; i += 1) {
      const at = log.lastIndexOf(countAtMs);
      if (at >= 0) log.splice(at, 1);
    }
  }

  async postpone(key: string, fromMs: number, toMs: number, count: number): Promise<number> {
    const log = this.#log.get(key) ?? [];
    let moved = 0;
    for (; moved < count; moved += 1) {
      const at = log.lastIndexOf(fromMs);
      if (at < 0) break;
      log[at] = toMs;
    }
    log.sort((a, b) => a - b);
    return moved;
  }

  async remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    if ((this.#pausedUntil.get(key) ?? 0) > nowMs) return 0;
    return Math.max(0, limit - this.#recent(key, nowMs, windowMs).length);
  }

  async pauseUntil(key: string, untilMs: number): Promise<void> {
    this.#pausedUntil.set(key, Math.max(untilMs, this.#pausedUntil.get(key) ?? 0));
  }

  async reserve(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<BudgetReservation> {
    const paused = this.#pausedUntil.get(key) ?? 0;
    if (paused > nowMs) return { granted: 0, retryAtMs: paused };
    const log = this.#recent(key, nowMs, windowMs);
    const reservation = decideReservation(log, nowMs, request, limit, windowMs);
    if (reservation.granted > 0) {
      for (let i = 0; i < reservation.granted; i += 1) log.push(request.countAtMs);
      log.sort((a, b) => a - b);
    }
    return reservation;
  }

  #recent(key: string, nowMs: number, windowMs: number): number[] {
    const log = (this.#log.get(key) ?? []).filter((at) => at > nowMs - windowMs).sort((a, b) => a - b);
    this.#log.set(key, log);
    return log;
  }
}

/**
 * The one reservation rule every adapter applies to its sorted log of counted times (`recent`: those still
 * in the window at `nowMs`, future ones included): grant as many as fit, or say when `atLeast` will.
 */
export function decideReservation(
  recent: readonly number[],
  nowMs: number,
  request: ReservationRequest,
  limit: number,
  windowMs: number,
): BudgetReservation {
  const free = limit - recent.length;
  if (free >= request.atLeast) return { granted: Math.max(0, Math.min(free, request.atMost)) };
  // The entry that must leave the window before `atLeast` more fit.
  const blocking = recent[recent.length - (limit - request.atLeast) - 1] ?? nowMs;
  return { granted: 0, retryAtMs: Math.max(nowMs + 1, blocking + windowMs) };
}
