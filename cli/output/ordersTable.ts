// A readable table of orders for the terminal, fitted to its width; the payment method goes with the
// total, so that the table fits 80 columns.
import type { Order } from '../../shared/api/schemas.js';
import { renderTable } from './fitTable.js';

export function formatOrdersTable(orders: Order[], width?: number): string {
  return renderTable(
    {
      head: ['Order', 'Status', 'Pickup', 'Establishment', 'Customer', 'Total', 'Items'],
      rows: orders.map((order) => [
        order.reference,
        order.status.value,
        order.pickup_at,
        order.establishment.name,
        order.customer.class
          ? `${order.customer.full_name} (${order.customer.class})`
          : order.customer.full_name,
        `${order.total.formatted} ${order.payment_method_type.value}`,
        String(order.items.reduce((sum, item) => sum + item.quantity, 0)),
      ]),
    },
    width,
  );
}
