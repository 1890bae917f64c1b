// The orders a cycle's walks saw, each as last seen: an order that moved between two listings during the
// cycle counts in the listing with the later `updated_at`. Orders seen are facts even in a walk cut short;
// only conclusions from absence need a listing whole.
import type { Order } from '../api/schemas.js';
import type { WalkResult } from '../detect/walkResult.js';

/** By order uuid, in the order first seen (the order their changes are committed in). */
export function observedOrders(walks: readonly WalkResult[]): Map<string, Order> {
  const seen = new Map<string, Order>();
  for (const { listing } of walks) {
    for (const order of listing?.records ?? []) {
      const earlier = seen.get(order.uuid);
      if (!earlier || earlier.updated_at < order.updated_at) seen.set(order.uuid, order);
    }
  }
  return seen;
}
