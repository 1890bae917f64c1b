// A readable table of establishments for the terminal, fitted to its width: each one's name with its
// uuid (whole, as filters take it) under it, and its status only when it is not enabled.
import type { Establishment } from '../../shared/api/schemas.js';
import { renderTable } from './fitTable.js';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function formatEstablishmentsTable(establishments: Establishment[], width?: number): string {
  return renderTable(
    {
      head: ['Establishment', 'Working days', 'Orders close', 'Pickup'],
      rows: establishments.map((establishment) => [
        `${establishment.name}${establishment.status.value === 'enabled' ? '' : ` (${establishment.status.value})`}\n${establishment.uuid}`,
        establishment.working_days.map((day) => WEEKDAYS[day - 1]).join(' '),
        establishment.order_closing_time,
        establishment.allowed_order_pickup_time_interval.join(' ') ||
          establishment.allowed_order_pickup_time_type,
      ]),
    },
    width,
  );
}
