// The subscriber filter matcher of local delivery. Its SNS twin is compileFilterPolicy; a table-driven
// test keeps the two agreeing case for case.
import type { SubscriberFilter } from '../config/configSchema.js';
import { isCatchUp } from '../events/catchUpEvent.js';
import { establishmentsOf, isEstablishmentEvent, type NotifierEvent } from '../events/notifierEvent.js';

/**
 * AND across the filter's keys, OR within each list; a missing key, or no filter, matches everything.
 *
 * `establishments` matches an order at one of them, an order that moved away from one (its kitchen must
 * hear it is gone), and an establishment event (a prep summary, a prep_changed) of one. `statuses` and
 * `paymentMethods` choose among orders: an establishment event is about none, so they never hold it back.
 * A kitchen channel filtered to its establishment and to pending orders still gets its summary and its
 * amendments; one that wants none lists its `types`.
 *
 * A catch-up stands for many order events: it matches when, key by key, one of them would (a type, an
 * establishment, a status and a payment method of those it counts each allowed), as its SNS attributes
 * (lists of those values) do. Whom it is for, by `catchUpAfter`, is not the filter's business.
 */
export function matchesFilter(filter: SubscriberFilter | undefined, event: NotifierEvent): boolean {
  if (filter === undefined) return true;
  // The config lower-cases uuids, but a filter built in code or an API answer in capitals must not
  // silently stop matching.
  const establishments = filter.establishments?.map((uuid) => uuid.toLowerCase());
  const about = establishmentsOf(event).map((uuid) => uuid.toLowerCase());
  if (!about.some((uuid) => allows(establishments, uuid))) return false;
  if (!isCatchUp(event) && !allows(filter.types, event.type)) return false;
  if (isEstablishmentEvent(event))
    return listsSomething(filter.statuses) && listsSomething(filter.paymentMethods);
  if (isCatchUp(event)) {
    const { types, statuses, payment_methods } = event.data;
    return (
      types.some((type) => allows(filter.types, type)) &&
      statuses.some((status) => allows(filter.statuses, status)) &&
      payment_methods.some((method) => allows(filter.paymentMethods, method))
    );
  }
  const order = event.data.order;
  return allows(filter.statuses, order.status) && allows(filter.paymentMethods, order.payment_method);
}

// An empty list (the config refuses one) matches nothing, as an OR over nothing does; it is never read
// as "everything", which would widen a subscriber's feed by accident.
function allows(list: readonly string[] | undefined, value: string): boolean {
  return list === undefined || list.includes(value);
}

/** A key that does not apply lets everything through, except an empty list, which still matches nothing. */
function listsSomething(list: readonly string[] | undefined): boolean {
  return list === undefined || list.length > 0;
}
