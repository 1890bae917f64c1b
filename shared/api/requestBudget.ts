// The per-token request budget (default 50/min, the spec's limit). The spec does not say whether the
// limit counts per token, organization or address, so we count per token: the strictest plausible scope.
import { createHash } from 'node:crypto';
import { type BudgetCounterStore, InMemoryBudgetCounterStore } from './budgetCounterStore.js';
import { RequestBudgetExhaustedError, type RequestContext } from './errors.js';

const WINDOW_MS = 60_000;

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
  /** Identifies the token in a shared store without revealing it. */
  readonly key: string;
  readonly #store: BudgetCounterStore;
  readonly #maxWaitMs: number;
  readonly #clock: () => number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: RequestBudgetOptions) {
    this.requestsPerMinute = options.requestsPerMinute ?? 50;
    this.key = `token#${createHash('sha256').update(options.token).digest('hex').slice(0, 32)}`;
    this.#store = options.store ?? new InMemoryBudgetCounterStore();
    this.#maxWaitMs = options.maxWaitMs ?? 65_000;
    this.#clock = options.clock ?? Date.now;
    this.#sleep = options.sleep ?? defaultSleep;
  }

  /** Takes one request from the budget, waiting for the window to free one if need be. */
  async acquire(context: RequestContext): Promise<void> {
    const deadline = this.#clock() + this.#maxWaitMs;
    for (;;) {
      const now = this.#clock();
      const take = await this.#store.tryTake(this.key, now, this.requestsPerMinute, WINDOW_MS);
      if (take.granted) return;
      if (take.retryAtMs > deadline) {
        throw new RequestBudgetExhaustedError(context, this.requestsPerMinute, take.retryAtMs);
      }
      await this.#sleep(Math.max(1, take.retryAtMs - now));
    }
  }

  remaining(): Promise<number> {
    return this.#store.remaining(this.key, this.#clock(), this.requestsPerMinute, WINDOW_MS);
  }

  pauseUntil(untilMs: number): Promise<void> {
    return this.#store.pauseUntil(this.key, untilMs);
  }
}

export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
