// What an order's money must add up to, for tests of anything that edits its lines.
import type { Order } from '../../../shared/api/schemas.js';

const cents = (amount: string) => Math.round(Number(amount) * 100);

/** What is inconsistent in the order's totals: empty when each line and the order add up, in cents. */
export function totalsProblems(order: Order): string[] {
  const problems: string[] = [];
  let sum = 0;
  for (const item of order.items) {
    const line = cents(item.price.amount) * item.quantity;
    if (cents(item.total.amount) !== line) problems.push(`${item.sku}: total ${item.total.amount}`);
    if (item.total.formatted !== `€${item.total.amount}`)
      problems.push(`${item.sku}: ${item.total.formatted}`);
    sum += line;
  }
  if (cents(order.subtotal.amount) !== sum) problems.push(`subtotal ${order.subtotal.amount}, lines ${sum}`);
  if (order.total.amount !== order.subtotal.amount) problems.push(`total ${order.total.amount}`);
  if (order.subtotal.formatted !== `€${order.subtotal.amount}`) problems.push(order.subtotal.formatted);
  if (order.total.formatted !== `€${order.total.amount}`) problems.push(order.total.formatted);
  return problems;
}
