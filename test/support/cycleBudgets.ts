// Request budgets for the in-memory orders source, neither of which ever waits: a plain counter
// (CountingBudget) and the real RequestBudget over in-memory counters on the test's clock.
import { type BudgetCounterStore, InMemoryBudgetCounterStore } from '../../shared/api/budgetCounterStore.js';
import { RequestBudgetExhaustedError, type RequestContext } from '../../shared/api/errors.js';
import { RequestBudget, reservationHoldMs } from '../../shared/api/requestBudget.js';
import type { CycleBudget } from '../../shared/poll/ordersSource.js';

/**
 * What the orders source draws every request from, as AdminApiClient draws from its RequestBudget: the
 * cycle's reservation first, else one request on its own (failing with RequestBudgetExhaustedError).
 */
export interface SourceBudget extends CycleBudget {
  acquire(context: RequestContext): Promise<void>;
}

export interface CountingBudgetOptions {
  /** What `usablePerMinute` reports (the pace and the walk split read it). @default 45, the usable share of 50 */
  usablePerMinute?: number;
  /** Requests that can still be taken or reserved. @default usablePerMinute */
  available?: number;
  /** Dates `retryAtMs` of a RequestBudgetExhaustedError (a minute on). @default Date.now */
  clock?: () => number;
}

/** One call of `reserve`, as CountingBudget logs it. */
export interface ReserveCall {
  atLeast: number;
  atMost: number;
  granted: number;
}

/**
 * A request budget with no time in it: `available` requests, no window freeing them. A reservation takes
 * from `available` (all of `atMost` that fits, nothing unless `atLeast` does), each request from the
 * reservation first, `release` gives back what was reserved and not sent, and `remaining` is `available`.
 * A test sets `available` to what a phase may spend.
 */
export class CountingBudget implements SourceBudget {
  readonly usablePerMinute: number;
  /** Requests that can still be taken or reserved; a test may set it. */
  available: number;
  /** Every `reserve` call, in order. */
  readonly reserveCalls: ReserveCall[] = [];
  #reserved = 0;
  readonly #clock: () => number;

  constructor(options: CountingBudgetOptions = {}) {
    this.usablePerMinute = options.usablePerMinute ?? 45;
    this.available = options.available ?? this.usablePerMinute;
    this.#clock = options.clock ?? Date.now;
  }

  get reserved(): number {
    return this.#reserved;
  }

  async reserve(atLeast: number, atMost: number): Promise<number> {
    const granted =
      atMost > 0 && this.available >= Math.max(1, atLeast) ? Math.min(this.available, atMost) : 0;
    this.available -= granted;
    this.#reserved += granted;
    this.reserveCalls.push({ atLeast, atMost, granted });
    return granted;
  }

  async acquire(context: RequestContext): Promise<void> {
    if (this.#reserved > 0) {
      this.#reserved -= 1;
      return;
    }
    if (this.available > 0) {
      this.available -= 1;
      return;
    }
    throw new RequestBudgetExhaustedError(context, this.usablePerMinute, this.#clock() + 60_000);
  }

  async release(): Promise<void> {
    this.available += this.#reserved;
    this.#reserved = 0;
  }

  holdMsFor(requests: number): number {
    return reservationHoldMs(requests);
  }

  async remaining(): Promise<number> {
    return this.available;
  }
}

export interface VirtualRequestBudgetOptions {
  /** The test's clock: the window moves only when it does. */
  clock: () => number;
  /** @default 50, the API's limit (all of it usable) */
  requestsPerMinute?: number;
  /** Pass an InMemoryStateStore's `budgetCounters` to share them. @default new InMemoryBudgetCounterStore */
  counters?: BudgetCounterStore;
  /** @default 'test-token' */
  token?: string;
  /** How long the budget may wait for room. @default 0: a budget with no room refuses at once, never sleeps */
  maxWaitMs?: number;
  /** Needed only with maxWaitMs above 0: must move `clock` on by `ms`. @default throws */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The real RequestBudget (sliding one-minute window, each request counted once it can have reached the
 * server) over in-memory counters on the test's clock. With the default maxWaitMs of 0 it never sleeps: what does not
 * fit now is refused (reserve gives 0, a lone request throws RequestBudgetExhaustedError).
 */
export function virtualRequestBudget(options: VirtualRequestBudgetOptions): RequestBudget {
  return new RequestBudget({
    token: options.token ?? 'test-token',
    requestsPerMinute: options.requestsPerMinute ?? 50,
    store: options.counters ?? new InMemoryBudgetCounterStore(),
    clock: options.clock,
    maxWaitMs: options.maxWaitMs ?? 0,
    sleep:
      options.sleep ??
      (async (ms) => {
        throw new Error(`the budget would wait ${ms} ms: pass a sleep that moves the test's clock`);
      }),
  });
}
