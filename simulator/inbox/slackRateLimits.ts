// Slack's Web API rate limits as the stand-in applies them, on the injected clock: chat.postMessage about
// one message a second per channel with a short burst, chat.update and conversations.info in Tier 3
// (50 a minute), auth.test generously (it is checked "hundreds of times a minute"). A refused call gets
// HTTP 429 and a Retry-After in seconds. A 429 forced by hand holds its method for the Retry-After it
// said, and a call that comes before that is over is refused again and counted as early: how a test
// sees that a client honoured Retry-After.
import { SlidingWindowRateLimiter } from '../rateLimiter.js';

export interface SlackMethodLimit {
  /** Calls allowed within `windowMs`. */
  limit: number;
  windowMs: number;
  /** Counted per channel (chat.postMessage) rather than per token. */
  perChannel?: boolean;
}

/** The limits the stand-in applies by default, after Slack's documented tiers. */
export const SLACK_METHOD_LIMITS: Readonly<Record<string, SlackMethodLimit>> = {
  // "One message per second per channel", with short bursts allowed: 3 in any 3 s.
  'chat.postMessage': { limit: 3, windowMs: 3_000, perChannel: true },
  // Tier 3: 50+ per minute.
  'chat.update': { limit: 50, windowMs: 60_000 },
  'conversations.info': { limit: 50, windowMs: 60_000 },
  // Special: hundreds per minute.
  'auth.test': { limit: 300, windowMs: 60_000 },
};

export type SlackRateDecision =
  | { allowed: true }
  | { allowed: false; retryAfterSeconds: number; early: boolean };

export interface ForcedRateLimit {
  /** The method refused; every method when absent. */
  method?: string;
  retryAfterSeconds: number;
  /** How many calls are refused outright before the hold alone decides. @default 1 */
  times?: number;
}

export class SlackRateLimits {
  readonly #limiters = new Map<string, SlidingWindowRateLimiter>();
  readonly #forced: Array<Required<Omit<ForcedRateLimit, 'method'>> & { method?: string }> = [];
  /** Per method ('*' for all): refused until this instant, after a forced 429. */
  readonly #heldUntil = new Map<string, number>();

  constructor(limits: Readonly<Record<string, SlackMethodLimit>> | false = SLACK_METHOD_LIMITS) {
    for (const [method, limit] of Object.entries(limits || {})) {
      this.#limiters.set(method, new SlidingWindowRateLimiter(limit.limit, limit.windowMs));
    }
    this.#perChannel = new Set(
      Object.entries(limits || {})
        .filter(([, limit]) => limit.perChannel)
        .map(([method]) => method),
    );
  }

  readonly #perChannel: Set<string>;

  /** The next calls (of a method, or any) are answered 429 with this Retry-After. */
  force(forced: ForcedRateLimit): void {
    this.#forced.push({ ...forced, times: forced.times ?? 1 });
  }

  /** Whether a call may go on now; a refused one is not counted against the limit. */
  check(method: string, token: string, channel: unknown, nowMs: number): SlackRateDecision {
    for (const key of [method, '*']) {
      const until = this.#heldUntil.get(key);
      if (until !== undefined && nowMs < until) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((until - nowMs) / 1000)),
          early: true,
        };
      }
    }
    const forced = this.#forced.find(
      (candidate) => candidate.method === undefined || candidate.method === method,
    );
    if (forced) {
      forced.times -= 1;
      if (forced.times <= 0) this.#forced.splice(this.#forced.indexOf(forced), 1);
      this.#heldUntil.set(forced.method ?? '*', nowMs + forced.retryAfterSeconds * 1000);
      return { allowed: false, retryAfterSeconds: forced.retryAfterSeconds, early: false };
    }
    const limiter = this.#limiters.get(method);
    if (!limiter) return { allowed: true };
    const key = this.#perChannel.has(method) ? `${token}\n${String(channel)}` : token;
    const decision = limiter.consume(key, nowMs);
    return decision.allowed
      ? { allowed: true }
      : { allowed: false, retryAfterSeconds: decision.retryAfterSeconds, early: false };
  }
}
