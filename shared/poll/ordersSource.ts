// The Admin API as the poll cycle needs it, and the token's request budget as a cycle spends it: the ports
// the cycle is handed. AdminApiClient and RequestBudget are the adapters; tests use in-memory ones.

import type { OrderQuery } from '../api/orderQuery.js';
import type { Listing, ListingWalk } from '../api/pagination.js';
import type { Establishment, Order } from '../api/schemas.js';

export interface CycleBudget {
  /** Requests per minute the token may use. */
  readonly usablePerMinute: number;
  /** Adds between `atLeast` and `atMost` requests to the reservation, waiting a while for `atLeast`. */
  reserve(atLeast: number, atMost: number): Promise<number>;
  /** Reserved requests not yet sent. */
  readonly reserved: number;
  /** Gives back what was reserved and not sent. */
  release(): Promise<void>;
  /** How much later than reserved a reservation of `requests` counts them. */
  holdMsFor(requests: number): number;
  remaining(): Promise<number>;
}

export interface OrdersSource {
  listOrders(query: OrderQuery, walk?: ListingWalk<Order>): Promise<Listing<Order>>;
  /** Their closing times drive the prep summaries; kept in the poll state, refreshed now and then. */
  listEstablishments(walk?: ListingWalk<Establishment>): Promise<Listing<Establishment>>;
  readonly budget: CycleBudget;
  readonly requestCount: number;
}
