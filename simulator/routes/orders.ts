// GET /orders: the spec's filters and defaults on the pickup date, 25 orders a page, in the envelope
// with links and meta or, in the old form, as a bare array.
import type { Order, OrderInput } from '../../shared/api/schemas.js';
import { type ApiResponse, bareSuccess, failure, success } from '../apiResponse.js';
import { type OrderListingQuery, parseOrderListingQuery, validationMessage } from '../orderListingQuery.js';
import { pageSlice, paginate } from '../pagination.js';
import type { PickupDateWriter } from '../pickupFormat.js';
import type { World } from '../world.js';

export const ORDERS_SHAPES = ['envelope', 'bare'] as const;
export type OrdersShape = (typeof ORDERS_SHAPES)[number];

export interface OrdersRequest {
  world: World;
  query: URLSearchParams;
  /** Absolute URL of this listing without a query, for the pagination links. */
  listingPath: string;
  shape: OrdersShape;
  pickupDates: PickupDateWriter;
}

export function listOrders(request: OrdersRequest): ApiResponse {
  const parsed = parseOrderListingQuery(request.query, request.world.today());
  if (!parsed.ok) return failure(422, validationMessage(parsed.errors), { errors: parsed.errors });
  const matching = request.world.viewOrders((order) => matches(order, parsed.query));
  const writeDate = request.pickupDates.nextResponse();
  const render = (order: Readonly<Order>): OrderInput => ({
    ...order,
    pickup_at: writeDate(order.pickup_at, order.uuid),
  });
  if (request.shape === 'bare') return bareSuccess(pageSlice(matching, parsed.query.page).map(render));
  const page = paginate(matching, parsed.query.page, { path: request.listingPath, query: request.query });
  return success('Orders retrieved successfully.', {
    data: page.data.map(render),
    links: page.links,
    meta: page.meta,
  });
}

function matches(order: Readonly<Order>, query: OrderListingQuery): boolean {
  return (
    order.status.value === query.status &&
    (query.establishment === undefined || order.establishment.uuid === query.establishment) &&
    order.pickup_at >= query.startDate &&
    order.pickup_at <= query.endDate &&
    (query.paymentMethod === undefined || order.payment_method_type.value === query.paymentMethod)
  );
}
