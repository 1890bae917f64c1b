// A readable table of orders for the terminal.
import Table from 'cli-table3';
import type { Order } from '../../shared/api/schemas.js';

export function formatOrdersTable(orders: Order[]): string {
  const table = new Table({
    head: ['Reference', 'Status', 'Pickup', 'Establishment', 'Customer', 'Payment', 'Total', 'Items'],
    style: { head: [], border: [], compact: true },
  });
  for (const order of orders) {
    const customer = order.customer.class
      ? `${order.customer.full_name} (${order.customer.class})`
      : order.customer.full_name;
    const items = order.items.reduce((sum, item) => sum + item.quantity, 0);
    table.push([
      order.reference,
      order.status.value,
      order.pickup_at,
      order.establishment.name,
      customer,
      order.payment_method_type.value,
      order.total.formatted,
      String(items),
    ]);
  }
  return table.toString();
}
