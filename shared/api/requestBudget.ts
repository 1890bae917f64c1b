// The per-token request budget (default 50/min, the spec's limit). The spec does not say whether the
// limit counts per token, organization or address, so we count per token: the strictest plausible scope.
// A poll cycle reserves its requests in one store write; requests outside a reservation take one each.
import { sleep } from '../time/sleep.js';
import { type BudgetCounterStore, InMemoryBudgetCounterStore } from './budgetCounterStore.js';
import { RequestBudgetExhaustedError, type RequestContext } from './errors.js';
import { tokenIdentity } from './tokenIdentity.js';

const WINDOW_MS = 60_000;
/**
 * How long after we send a request the server may count it: it counts on arrival, after the connection's
 * setup (a TLS handshake over a slow link, one lost SYN resent after Linux's 1 s) and the difference between
 * the clocks of two hosts sharing the budget. Every request is counted at least this long after it goes
 * out, so the window never frees it before the server does. This replaces a margin of 10 % of the limit,
 * which a cycle answered slowly overran (test/integration/api/requestBudget.lateRequests.test.ts).
 */
const ARRIVAL_MS = 2_000;
/**
 * How long each reserved request is assumed to take, one after another (see ReservationRequest), until a
 * cycle's own requests show they take longer.
 */
const RESERVED_REQUEST_MS = 250;
const MAX_RESERVATION_HOLD_MS = 15_000;

/**
 * How much later than its reservation a cycle of `requests` counts them: the last of them reaches the
 * server about then. Each reservation so stays in the window that much longer, which the pace allows for.
 * Requests that go out later still (slow answers before them) are counted later when they do (acquire).
 */
export function reservationHoldMs(requests: number, perRequestMs = RESERVED_REQUEST_MS): number {
  return ARRIVAL_MS + Math.min(MAX_RESERVATION_HOLD_MS, requests * perRequestMs);
}

/** How long each of a reservation's requests has taken to go out so far, at least the assumed. */
function paceSoFar(held: HeldReservation, now: number): number {
  const sent = held.granted - held.count;
  return sent > 0 ? Math.max(RESERVED_REQUEST_MS, (now - held.reservedAt) / sent) : RESERVED_REQUEST_MS;
}

/** A reservation this budget holds: `count` of its `granted` requests not sent yet. */
interface HeldReservation {
  reservedAt: number;
  countAtMs: number;
  granted: number;
  count: number;
}

export interface RequestBudgetOptions {
  /** The API token; only a hash of it is ever used as a key. */
  token: string;
  /** @default 50 */
  requestsPerMinute?: number;
  /** Pass one store to every budget of a token to share it. @default a new InMemoryBudgetCounterStore */
  store?: BudgetCounterStore;
  /** Longest wait for budget before giving up with RequestBudgetExhaustedError. @default 65_000 */
  maxWaitMs?: number;
  /** @default Date.now */
  clock?: () => number;
  /** @default a setTimeout-based sleep */
  sleep?: (ms: number) => Promise<void>;
}

export class RequestBudget {
  readonly requestsPerMinute: number;
  /**
   * What we allow ourselves in any minute: the whole limit, as every request is counted no earlier than
   * the server can count it (ARRIVAL_MS).
   */
  readonly usablePerMinute: number;
  /** Identifies the token in a shared store without revealing it. */
  readonly key: string;
  readonly maxWaitMs: number;
  readonly #store: BudgetCounterStore;
  readonly #clock: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Reservations not yet used up, each with the time the store counts it at. */
  #reservations: HeldReservation[] = [];

  constructor(options: RequestBudgetOptions) {
    this.requestsPerMinute = options.requestsPerMinute ?? 50;
    this.usablePerMinute = this.requestsPerMinute;
    this.key = tokenIdentity(options.token);
    this.#store = options.store ?? new InMemoryBudgetCounterStore();
    this.maxWaitMs = options.maxWaitMs ?? 65_000;
    this.#clock = options.clock ?? Date.now;
    this.#sleep = options.sleep ?? sleep;
  }

  /**
   * Takes one request, from the cycle's reservation when there is one, else from the store (waiting if need
   * be), counted no earlier than it can reach the server (see #keepAhead).
   */
  async acquire(context: RequestContext): Promise<void> {
    await this.#keepAhead();
    const reservation =
      this.#reservations.find(({ count }) => count > 0) ?? (await this.#reserveOne(context));
    reservation.count -= 1;
  }

  /** A reservation of one request, waiting up to maxWaitMs for room, then kept ahead of its sending. */
  async #reserveOne(context: RequestContext): Promise<HeldReservation> {
    const deadline = this.#clock() + this.maxWaitMs;
    for (;;) {
      const now = this.#clock();
      // A reservation of one, with its 250 ms for the store's write before the request goes out.
      const countAtMs = now + reservationHoldMs(1);
      const take = await this.#store.reserve(
        this.key,
        now,
        { atLeast: 1, atMost: 1, countAtMs },
        this.usablePerMinute,
        WINDOW_MS,
      );
      if (take.granted > 0) {
        const held = this.#hold(now, countAtMs, 1);
        await this.#keepAhead();
        return held;
      }
      const retryAtMs = 'retryAtMs' in take ? take.retryAtMs : deadline + 1;
      if (retryAtMs > deadline) {
        throw new RequestBudgetExhaustedError(context, this.requestsPerMinute, retryAtMs);
      }
      await this.#sleep(Math.max(1, retryAtMs - now));
    }
  }

  /**
   * Postpones every reservation whose next request would go out later than it counts it (slow answers
   * before it, a slow store write), counting its rest at the pace its requests have gone out so far, so
   * that a slow server costs a cycle a write or two rather than one every few requests. A postpone is one
   * write that nobody can race, while the reservation is still in the window; one that has left it (a
   * cycle stalled for a minute), or that a reservation forgot as gone before the postpone landed, is
   * dropped, its requests taken again one at a time.
   */
  async #keepAhead(): Promise<void> {
    let writeMs = 0;
    for (;;) {
      const now = this.#clock();
      const late = this.#reservations.filter(
        ({ count, countAtMs }) => count > 0 && countAtMs < now + ARRIVAL_MS,
      );
      if (late.length === 0) return;
      for (const held of late) {
        if (now + ARRIVAL_MS >= held.countAtMs + WINDOW_MS) {
          held.count = 0;
          continue;
        }
        const toMs = now + writeMs + reservationHoldMs(held.count, paceSoFar(held, now));
        const moved = await this.#store.postpone(this.key, held.countAtMs, toMs, held.count);
        // Any not found had left the window, and their room may be taken: none of the rest is sent.
        if (moved < held.count) held.count = 0;
        else held.countAtMs = toMs;
      }
      // The next look counts from after these writes, so that a slow store cannot keep them late.
      writeMs = this.#clock() - now;
    }
  }

  /**
   * Adds to this budget's reservation between `atLeast` and `atMost` requests in one store write, waiting
   * up to `maxWaitMs` for `atLeast` to fit. Returns how many were added (0 when they did not fit in time).
   */
  async reserve(atLeast: number, atMost: number, maxWaitMs = this.maxWaitMs): Promise<number> {
    if (atMost <= 0) return 0;
    const deadline = this.#clock() + maxWaitMs;
    for (;;) {
      const now = this.#clock();
      const countAtMs = now + reservationHoldMs(atMost);
      const request = { atLeast: Math.max(1, atLeast), atMost, countAtMs };
      const result = await this.#store.reserve(this.key, now, request, this.usablePerMinute, WINDOW_MS);
      if (result.granted > 0) {
        this.#hold(now, countAtMs, result.granted);
        return result.granted;
      }
      if (!('retryAtMs' in result) || result.retryAtMs > deadline) return 0;
      // What this budget already holds stays its own while it waits: requests of it sent after the wait
      // are counted later as they go (#keepAhead), and giving them back would let another user take them.
      await this.#sleep(Math.max(1, result.retryAtMs - now));
    }
  }

  #hold(reservedAt: number, countAtMs: number, granted: number): HeldReservation {
    const held = { reservedAt, countAtMs, granted, count: granted };
    // Used-up ones go: a client that never releases (lone requests only) would otherwise keep them all.
    this.#reservations = this.#reservations.filter(({ count }) => count > 0);
    this.#reservations.push(held);
    return held;
  }

  holdMsFor(requests: number): number {
    return reservationHoldMs(requests);
  }

  /** Reserved requests not yet sent. */
  get reserved(): number {
    return this.#reservations.reduce((sum, { count }) => sum + count, 0);
  }

  /** Gives the unsent part of every reservation back to the store (no write when nothing is left). */
  async release(): Promise<void> {
    const unused = this.#reservations.filter(({ count }) => count > 0);
    this.#reservations = [];
    for (const { countAtMs, count } of unused) await this.#store.release(this.key, countAtMs, count);
  }

  remaining(): Promise<number> {
    return this.#store.remaining(this.key, this.#clock(), this.usablePerMinute, WINDOW_MS);
  }

  pauseUntil(untilMs: number): Promise<void> {
    // What was reserved before the server told us to back off is not to be sent now.
    this.#reservations = [];
    return this.#store.pauseUntil(this.key, untilMs);
  }
}
