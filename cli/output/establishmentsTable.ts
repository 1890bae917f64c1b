// A readable table of establishments for the terminal.
import Table from 'cli-table3';
import type { Establishment } from '../../shared/api/schemas.js';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function formatEstablishmentsTable(establishments: Establishment[]): string {
  const table = new Table({
    head: ['UUID', 'Name', 'Status', 'Working days', 'Orders close', 'Pickup'],
    style: { head: [], border: [], compact: true },
  });
  for (const establishment of establishments) {
    table.push([
      establishment.uuid,
      establishment.name,
      establishment.status.value,
      establishment.working_days.map((day) => WEEKDAYS[day - 1]).join(' '),
      establishment.order_closing_time,
      establishment.allowed_order_pickup_time_interval.join(' ') ||
        establishment.allowed_order_pickup_time_type,
    ]);
  }
  return table.toString();
}
