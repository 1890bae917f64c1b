// Failures injected on purpose, changeable while the simulator runs: a share of 5xx answers (seeded),
// added latency, a number of forced 429s, and pagination links pointing at another origin.
import type { SeededRandom } from './seededRandom.js';

export interface FaultSettings {
  /** Share of authenticated requests answered with `errorStatus`, 0..1. */
  errorRate: number;
  /** Status of an injected server error. Default 500. */
  errorStatus: number;
  /** Added to every response, in ms. */
  latencyMs: number;
  /** The next this-many authenticated requests get 429. */
  force429: number;
  /** Retry-After of a forced 429, in seconds. */
  retryAfterSeconds: number;
  /** When set, pagination links use this origin instead of the simulator's own (e.g. `http://evil.example`). */
  linkOrigin: string | null;
}

export const NO_FAULTS: Readonly<FaultSettings> = {
  errorRate: 0,
  errorStatus: 500,
  latencyMs: 0,
  force429: 0,
  retryAfterSeconds: 1,
  linkOrigin: null,
};

export class FaultInjector {
  private current: FaultSettings;

  constructor(
    private readonly rng: SeededRandom,
    initial: Partial<FaultSettings> = {},
  ) {
    this.current = validated({ ...NO_FAULTS, ...initial });
  }

  get settings(): Readonly<FaultSettings> {
    return { ...this.current };
  }

  set(changes: Partial<FaultSettings>): void {
    this.current = validated({ ...this.current, ...changes });
  }

  /** Back to no faults at all. */
  reset(): void {
    this.current = { ...NO_FAULTS };
  }

  /** Makes the next `count` authenticated requests answer 429, adding to any still queued. */
  force429(count: number, retryAfterSeconds?: number): void {
    this.set({
      force429: this.current.force429 + count,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }

  /** Uses up one forced 429 if any is queued; returns its Retry-After in seconds. */
  takeForced429(): number | undefined {
    if (this.current.force429 <= 0) return undefined;
    this.current.force429 -= 1;
    return this.current.retryAfterSeconds;
  }

  /** Whether this request should fail with a server error; draws from the seeded stream. */
  takeServerError(): number | undefined {
    const { errorRate, errorStatus } = this.current;
    if (errorRate <= 0) return undefined;
    if (errorRate >= 1 || this.rng.next() < errorRate) return errorStatus;
    return undefined;
  }
}

function validated(settings: FaultSettings): FaultSettings {
  if (!(settings.errorRate >= 0 && settings.errorRate <= 1)) {
    throw new RangeError(`errorRate must be between 0 and 1, got ${settings.errorRate}`);
  }
  if (
    !(Number.isInteger(settings.errorStatus) && settings.errorStatus >= 500 && settings.errorStatus <= 599)
  ) {
    throw new RangeError(`errorStatus must be a 5xx status, got ${settings.errorStatus}`);
  }
  if (!(Number.isFinite(settings.latencyMs) && settings.latencyMs >= 0)) {
    throw new RangeError(`latencyMs must be >= 0, got ${settings.latencyMs}`);
  }
  if (!(Number.isInteger(settings.force429) && settings.force429 >= 0)) {
    throw new RangeError(`force429 must be an integer >= 0, got ${settings.force429}`);
  }
  if (!(Number.isInteger(settings.retryAfterSeconds) && settings.retryAfterSeconds >= 0)) {
    throw new RangeError(`retryAfterSeconds must be an integer >= 0, got ${settings.retryAfterSeconds}`);
  }
  if (settings.linkOrigin !== null && !URL.canParse(settings.linkOrigin)) {
    throw new RangeError(`linkOrigin must be an absolute URL, got ${settings.linkOrigin}`);
  }
  return settings;
}
