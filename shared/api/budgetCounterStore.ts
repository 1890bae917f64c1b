// The port behind the per-token request budget, its in-memory adapter, and the reservation rule every
// adapter shares. A shared adapter (DynamoDB) lets several Lambda invocations draw on one budget.

export type BudgetTake = { granted: true; remaining: number } | { granted: false; retryAtMs: number };

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

/** What an adapter's reservation decided, and how many requests the window held before it. */
export interface ReservationOutcome {
  reservation: BudgetReservation;
  counted: number;
}

export interface BudgetCounterStore {
  /** Atomically records one request under `key` if fewer than `limit` were made in the window ending now. */
  tryTake(key: string, nowMs: number, limit: number, windowMs: number): Promise<BudgetTake>;
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
  /** Requests still available under `key` in the window ending now. */
  remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number>;
  /** Grants nothing under `key` before `untilMs` (the server told us to back off). */
  pauseUntil(key: string, untilMs: number): Promise<void>;
}

/**
 * An adapter that decides every take and reservation in one place, `reserveCounted`: a take is a
 * reservation of exactly one request counted now, so the two never disagree.
 */
export abstract class ReservingBudgetStore implements BudgetCounterStore {
  protected abstract reserveCounted(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<ReservationOutcome>;

  abstract release(key: string, countAtMs: number, count: number): Promise<void>;
  abstract remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number>;
  abstract pauseUntil(key: string, untilMs: number): Promise<void>;

  async tryTake(key: string, nowMs: number, limit: number, windowMs: number): Promise<BudgetTake> {
    const { reservation, counted } = await this.reserveCounted(
      key,
      nowMs,
      takeRequest(nowMs),
      limit,
      windowMs,
    );
    return takeResult(reservation, counted, limit);
  }

  async reserve(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<BudgetReservation> {
    return (await this.reserveCounted(key, nowMs, request, limit, windowMs)).reservation;
  }
}

/** A sliding log of request times per key: exact, and fine for one process. */
export class InMemoryBudgetCounterStore extends ReservingBudgetStore {
  readonly #log = new Map<string, number[]>();
  readonly #pausedUntil = new Map<string, number>();

  async release(key: string, countAtMs: number, count: number): Promise<void> {
    const log = this.#log.get(key) ?? [];
    for (let i = 0; i < count; i += 1) {
      const at = log.lastIndexOf(countAtMs);
      if (at >= 0) log.splice(at, 1);
    }
  }

  async remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    if ((this.#pausedUntil.get(key) ?? 0) > nowMs) return 0;
    return Math.max(0, limit - this.#recent(key, nowMs, windowMs).length);
  }

  async pauseUntil(key: string, untilMs: number): Promise<void> {
    this.#pausedUntil.set(key, Math.max(untilMs, this.#pausedUntil.get(key) ?? 0));
  }

  protected async reserveCounted(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<ReservationOutcome> {
    const paused = this.#pausedUntil.get(key) ?? 0;
    if (paused > nowMs) return { reservation: { granted: 0, retryAtMs: paused }, counted: 0 };
    const log = this.#recent(key, nowMs, windowMs);
    const counted = log.length;
    const reservation = decideReservation(log, nowMs, request, limit, windowMs);
    if (reservation.granted > 0) {
      for (let i = 0; i < reservation.granted; i += 1) log.push(request.countAtMs);
      log.sort((a, b) => a - b);
    }
    return { reservation, counted };
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

/** A take is a reservation of exactly one request, counted now: adapters implement tryTake with it. */
export function takeRequest(nowMs: number): ReservationRequest {
  return { atLeast: 1, atMost: 1, countAtMs: nowMs };
}

/** The take's answer from the reservation of `takeRequest` and how many the window held before it. */
export function takeResult(reservation: BudgetReservation, counted: number, limit: number): BudgetTake {
  if ('retryAtMs' in reservation) return { granted: false, retryAtMs: reservation.retryAtMs };
  return { granted: true, remaining: Math.max(0, limit - counted - reservation.granted) };
}
