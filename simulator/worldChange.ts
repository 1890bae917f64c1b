// The record of one change a world made to an order, and the feed that hands each one to subscribers:
// the ground truth a benchmark compares with what the notifier detected (a status, a move, or an edit of
// a pending order's items or notes).

export type WorldChangeKind =
  | 'created'
  | 'status'
  | 'pickup_date'
  | 'establishment'
  | 'rescheduled'
  | 'items'
  | 'notes'
  | 'item_notes'
  | 'removed';

export interface WorldChange {
  /** Epoch ms of the change itself: a scenario event applied late still carries its own time. */
  at: number;
  orderUuid: string;
  kind: WorldChangeKind;
  /**
   * Before the change: the status, pickup date or establishment uuid; for `rescheduled` both, as
   * `<establishment uuid>|<pickup date>`; for `items` the lines as `SKU×quantity, …` (see `itemsText`);
   * for `notes` and `item_notes` the notes, null when there were none; null for `created`.
   */
  from: string | null;
  /**
   * After the change; the initial status for `created`, null for `removed`; for `notes` and
   * `item_notes` null when the notes were cleared.
   */
  to: string | null;
  /** The order's pickup date (YYYY-MM-DD) after the change, or when it was removed. */
  pickupDate: string;
  /** The order's establishment after the change, or when it was removed. */
  establishmentUuid: string;
  /** For `item_notes` only: the item whose notes changed. */
  itemUuid?: string;
}

/** An order's lines as an `items` change reads them: `MENU-DAY×2, JUICE×1`, in the order's line order. */
export function itemsText(items: ReadonlyArray<{ sku: string; quantity: number }>): string {
  return items.map((item) => `${item.sku}×${item.quantity}`).join(', ');
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
