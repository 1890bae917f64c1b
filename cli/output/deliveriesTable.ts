// A readable table of outbox deliveries: who, which event (with the id that replay takes whole), where the
// delivery stands, and its last error on a line of its own under it, so the table fits 80 columns.
import type { DeliveryStatus } from '../../shared/delivery/deliveryOutbox.js';
import { humanDuration } from '../../shared/time/humanDuration.js';
import { renderTable, type TableRow } from './fitTable.js';

export interface DeliveryRow {
  subscriberId: string;
  eventId: string;
  eventType: string;
  reference: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
}

export function formatDeliveriesTable(rows: DeliveryRow[], nowMs: number, width?: number): string {
  return renderTable(
    {
      head: ['Subscriber', 'Event', 'Status'],
      rows: rows.flatMap((row): TableRow[] => [
        [
          row.subscriberId,
          [`${row.eventType} ${row.reference}`.trim(), row.eventId].join('\n'),
          statusOf(row, nowMs),
        ],
        ...(row.lastError ? [{ note: `last error: ${row.lastError}` }] : []),
      ]),
    },
    width,
  );
}

function statusOf(row: DeliveryRow, nowMs: number): string {
  const lines = [row.status, `${row.attempts} ${row.attempts === 1 ? 'attempt' : 'attempts'}`];
  if (row.status === 'queued') lines.push(`next ${describeWhen(row.nextAttemptAt, nowMs)}`);
  return lines.join('\n');
}

function describeWhen(atMs: number, nowMs: number): string {
  return Math.round((atMs - nowMs) / 1000) <= 0 ? 'now' : `in ${humanDuration(atMs - nowMs)}`;
}
