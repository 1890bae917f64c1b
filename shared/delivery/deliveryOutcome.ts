// What one delivery attempt came to, in the terms the retry logic needs: done, try again (maybe after a
// time the receiver asked for), give up on this event, or give up on the subscriber altogether.
import type { DigestEvent } from '../events/digestEvent.js';
import type { NotifierEvent } from '../events/notifierEvent.js';

export type DeliveryOutcome =
  | { kind: 'delivered'; status?: number }
  /** Transient (429, 5xx, timeout, network): retry on the schedule, not before `retryAfterMs`. */
  | { kind: 'retry'; reason: string; status?: number; retryAfterMs?: number }
  /** Permanent for this event (another 4xx, `invalid_payload`, …): straight to the dead letters. */
  | { kind: 'dead'; reason: string; status?: number }
  /** The subscriber is gone (410, `channel_is_archived`, …): disable it, deliver nothing more to it. */
  | { kind: 'gone'; reason: string; status?: number }
  /**
   * Only a person can fix it (a revoked token, an app not in its channel): pause the subscriber and keep
   * its deliveries, probing now and then, until it answers again. `action` says in one line what to do.
   */
  | { kind: 'paused'; reason: string; action: string; status?: number };

/** One subscriber's way of delivering an event. Senders never throw for a delivery failure. */
export interface EventSender {
  send(event: NotifierEvent): Promise<DeliveryOutcome>;
  /** Only e-mail senders take digests; a queued digest for any other is dead. */
  sendDigest?(digest: DigestEvent): Promise<DeliveryOutcome>;
}

/** A sender that owns connections (an HTTP client's pool, an SMTP transport) to close at shutdown. */
export interface ClosableSender extends EventSender {
  close(): Promise<void>;
  /**
   * Finishes what the sender put off (a coalesced board edit) by `untilMs` (epoch ms) where it can, and
   * leaves the rest where another process finds it. A Lambda invocation calls it before it returns, since a
   * timer left behind only runs when the next invocation thaws the container.
   */
  settle?(untilMs: number): Promise<void>;
}
