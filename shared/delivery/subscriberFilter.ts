// The subscriber filter matcher of local delivery. Its SNS twin is compileFilterPolicy; a table-driven
// test keeps the two agreeing case for case.
import type { SubscriberFilter } from '../config/configSchema.js';
import type { OrderEvent } from '../events/orderEvent.js';

/** AND across the filter's keys, OR within each list; a missing key, or no filter, matches everything. */
export function matchesFilter(filter: SubscriberFilter | undefined, event: OrderEvent): boolean {
  if (filter === undefined) return true;
  const order = event.data.order;
  // The config lower-cases uuids, but a filter built in code or an API answer in capitals must not
  // silently stop matching.
  const establishments = filter.establishments?.map((uuid) => uuid.toLowerCase());
  return (
    allows(filter.types, event.type) &&
    allows(establishments, order.establishment.uuid.toLowerCase()) &&
    allows(filter.statuses, order.status) &&
    allows(filter.paymentMethods, order.payment_method)
  );
}

// An empty list (the config refuses one) matches nothing, as an OR over nothing does; it is never read
// as "everything", which would widen a subscriber's feed by accident.
function allows(list: readonly string[] | undefined, value: string): boolean {
  return list === undefined || list.includes(value);
}
