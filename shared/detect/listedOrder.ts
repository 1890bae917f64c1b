// The order we predict the API lists orders in, and pages by (pure): pickup date, then creation time, then
// uuid. The simulator's; the spec says nothing of an order, so a listing is checked against it as it comes.
import type { Order } from '../api/schemas.js';

/** What places an order in a listing: its pickup date (YYYY-MM-DD), its creation time and its uuid. */
export interface ListedPlace {
  pickupDate: string;
  createdAt: string;
  uuid: string;
}

/** Negative where `a` is listed before `b`. */
export function compareListed(a: ListedPlace, b: ListedPlace): number {
  return (
    compareText(a.pickupDate, b.pickupDate) ||
    compareText(a.createdAt, b.createdAt) ||
    compareText(a.uuid, b.uuid)
  );
}

/** Whether `records`, as a listing returned them, come in the order we predict. */
export function isListedAsWePredict(records: readonly Order[]): boolean {
  const place = (order: Order): ListedPlace => ({
    pickupDate: order.pickup_at,
    createdAt: order.created_at,
    uuid: order.uuid,
  });
  for (let index = 1; index < records.length; index += 1) {
    const [a, b] = [records[index - 1], records[index]];
    if (a !== undefined && b !== undefined && compareListed(place(a), place(b)) > 0) return false;
  }
  return true;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
