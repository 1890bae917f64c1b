// A readable table of outbox deliveries.
import Table from 'cli-table3';
import type { DeliveryStatus } from '../../shared/delivery/deliveryOutbox.js';
import { humanDuration } from '../../shared/time/humanDuration.js';

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

export function formatDeliveriesTable(rows: DeliveryRow[], nowMs: number): string {
  const table = new Table({
    head: ['Subscriber', 'Event', 'Order', 'Status', 'Attempts', 'Next attempt', 'Last error'],
    style: { head: [], border: [], compact: true },
    colWidths: [null, null, null, null, null, null, 60],
    wordWrap: true,
  });
  for (const row of rows) {
    table.push([
      row.subscriberId,
      `${row.eventType}\n${row.eventId}`,
      row.reference,
      row.status,
      String(row.attempts),
      row.status === 'queued' ? describeWhen(row.nextAttemptAt, nowMs) : '',
      row.lastError ?? '',
    ]);
  }
  return table.toString();
}

function describeWhen(atMs: number, nowMs: number): string {
  return Math.round((atMs - nowMs) / 1000) <= 0 ? 'now' : `in ${humanDuration(atMs - nowMs)}`;
}
