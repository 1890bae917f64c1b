// The record of one change a world made to an order, and the feed that hands each one to subscribers:
// the ground truth a benchmark compares with what the notifier detected.

export type WorldChangeKind =
  | 'created'
  | 'status'
  | 'pickup_date'
  | 'establishment'
  | 'rescheduled'
  | 'removed';

export interface WorldChange {
  /** Epoch ms of the change itself: a scenario event applied late still carries its own time. */
  at: number;
  orderUuid: string;
  kind: WorldChangeKind;
  /**
   * Before the change: the status, pickup date or establishment uuid; for `rescheduled` both, as
   * `<establishment uuid>|<pickup date>`; null for `created`.
   */
  from: string | null;
  /** After the change; the initial status for `created`, null for `removed`. */
  to: string | null;
  /** The order's pickup date (YYYY-MM-DD) after the change, or when it was removed. */
  pickupDate: string;
  /** The order's establishment after the change, or when it was removed. */
  establishmentUuid: string;
}

export type WorldChangeListener = (change: Readonly<WorldChange>) => void;

export class ChangeFeed {
  private readonly listeners = new Set<WorldChangeListener>();

  /** Returns the function that unsubscribes `listener`. */
  subscribe(listener: WorldChangeListener): () => void {
    // Wrapped so that the same function subscribed twice is called twice and unsubscribed once per call.
    const entry: WorldChangeListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  emit(change: WorldChange): void {
    if (this.listeners.size === 0) return;
    const frozen = Object.freeze(change);
    // A copy, so a listener that unsubscribes (or subscribes another) mid-delivery does not skip anyone.
    for (const listener of [...this.listeners]) listener(frozen);
  }
}
