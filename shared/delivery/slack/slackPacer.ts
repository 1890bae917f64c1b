// Slack takes about one message per second per incoming webhook and answers 429 beyond that. Several
// subscribers may share a webhook URL, so pacing is per URL and per process, not per sender: one pacer
// holds the next free send slot of every URL. It only does arithmetic on times it is given; senders
// wait with their own clock and sleep, so tests run on fake time.

export const SLACK_MESSAGE_INTERVAL_MS = 1_000;

// Beyond this many URLs, those with no pending slot are forgotten so the map cannot grow without bound.
const PRUNE_ABOVE = 1_000;

export class SlackPacer {
  readonly intervalMs: number;
  readonly #nextSlotAt = new Map<string, number>();

  constructor(intervalMs: number = SLACK_MESSAGE_INTERVAL_MS) {
    this.intervalMs = intervalMs;
  }

  /**
   * Takes the next send slot of `url`: how many ms to wait before sending (0 to send now), or undefined,
   * reserving nothing, when that wait would be longer than `maxWaitMs`. Synchronous, so senders that
   * reserve at the same moment get consecutive slots.
   */
  reserve(url: string, nowMs: number, maxWaitMs = Number.POSITIVE_INFINITY): number | undefined {
    const slot = Math.max(nowMs, this.#nextSlotAt.get(url) ?? nowMs);
    const waitMs = slot - nowMs;
    if (waitMs > maxWaitMs) return undefined;
    this.#prune(nowMs);
    this.#nextSlotAt.set(url, slot + this.intervalMs);
    return waitMs;
  }

  /** Ms until `url` has a free slot (0 when it has one now). */
  waitFor(url: string, nowMs: number): number {
    return Math.max(0, (this.#nextSlotAt.get(url) ?? nowMs) - nowMs);
  }

  /** Slack said to wait (429 Retry-After): no slot of `url` opens before `atMs`. */
  holdUntil(url: string, atMs: number): void {
    this.#nextSlotAt.set(url, Math.max(atMs, this.#nextSlotAt.get(url) ?? atMs));
  }

  #prune(nowMs: number): void {
    if (this.#nextSlotAt.size < PRUNE_ABOVE) return;
    for (const [url, slot] of this.#nextSlotAt) if (slot <= nowMs) this.#nextSlotAt.delete(url);
  }
}

/** The process-wide pacer every SlackSender uses unless given another. */
export const sharedSlackPacer = new SlackPacer();
