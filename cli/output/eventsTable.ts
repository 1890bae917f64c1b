// `meal-notifier events` for people: one row per event, newest first, with when it was recorded, its
// type and id (what replay takes), its order, and one line per subscriber saying what became of it; laid
// out to fit the terminal, the deliveries column wrapping first, then the times, then the event ids.
import Table from 'cli-table3';
import type { ListedEvent, SubscriberDelivery } from '../../shared/operations/eventHistory.js';
import { humanDuration } from '../../shared/time/humanDuration.js';

export interface EventsTableOptions {
  nowMs: number;
  /** The widest the table may be, borders included. */
  width: number;
  /** Organization names by id; each row names its organization when there are several. */
  organizationNames: ReadonlyMap<string, string>;
}

const HEAD = ['Recorded', 'Event', 'Order', 'Deliveries'];
/** Each column's cell padding, one space either side. */
const PADDING = 2;
/** Narrowest the wrapping columns get before the table is let out wider than the terminal. */
const MIN_DELIVERIES = 24;
const MIN_EVENT = 16;
/** The date above the time: wrapped at the space between them. */
const MIN_RECORDED = 'YYYY-MM-DD'.length;

export function formatEventsTable(events: readonly ListedEvent[], options: EventsTableOptions): string {
  const several = options.organizationNames.size > 1;
  const rows = events.map((listed) => [
    `${listed.recordedAt.slice(0, 19).replace('T', ' ')}Z\n${humanDuration(options.nowMs - Date.parse(listed.recordedAt))} ago`,
    `${listed.type}\n${listed.id}`,
    several
      ? `${listed.order.reference}\n${options.organizationNames.get(listed.organizationId) ?? listed.organizationId}`
      : listed.order.reference,
    listed.deliveries.length === 0
      ? 'no subscriber'
      : listed.deliveries.map((delivery) => describeDelivery(delivery, options.nowMs)).join('\n'),
  ]);
  const widths = fitColumns([HEAD, ...rows], options.width);
  const table = new Table({
    head: HEAD,
    style: { head: [], border: [], compact: true },
    colWidths: widths,
    wordWrap: true,
  });
  for (const [recorded, event, order, deliveries] of rows) {
    // An id cut at the column's edge beats one cut short with an ellipsis: it can still be copied whole.
    table.push([
      recorded ?? '',
      { content: event ?? '', wrapOnWordBoundary: false },
      order ?? '',
      deliveries ?? '',
    ]);
  }
  return table.toString();
}

/** What became of the event for one subscriber, in a line. */
export function describeDelivery(delivery: SubscriberDelivery, nowMs: number): string {
  const who = `${delivery.subscriberId}:`;
  const attempts = delivery.attempts ?? 0;
  const error = delivery.lastError === null ? '' : `; last error: ${delivery.lastError}`;
  switch (delivery.status) {
    case 'delivered':
      return `${who} delivered${attempts > 1 ? ` on attempt ${attempts}` : ''}`;
    case 'queued': {
      const due = delivery.nextAttemptAt === null ? nowMs : Date.parse(delivery.nextAttemptAt);
      const when = due - nowMs < 1_000 ? 'now' : `in ${humanDuration(due - nowMs)}`;
      return `${who} queued, attempt ${attempts + 1} ${when}${error}`;
    }
    case 'dead':
      // Never attempted: the subscriber was disabled (a receiver said it is gone) while it waited.
      return attempts === 0
        ? `${who} dead, not attempted${error}`
        : `${who} dead after ${attempts} attempt${attempts === 1 ? '' : 's'}${error}`;
    case 'routed':
      return `${who} routed`;
  }
}

/**
 * Column widths (padding included) that fit `width` with the borders: each column as wide as its widest
 * line, then the deliveries column narrowed, then the times, then the events, no further than their minimums.
 */
function fitColumns(rows: readonly (readonly string[])[], width: number): number[] {
  const natural = HEAD.map(
    (_, column) =>
      Math.max(
        ...rows.map((row) => Math.max(...(row[column] ?? '').split('\n').map((line) => line.length))),
      ) + PADDING,
  );
  const borders = HEAD.length + 1;
  let excess = natural.reduce((sum, columnWidth) => sum + columnWidth, 0) + borders - width;
  const widths = [...natural];
  for (const [column, minimum] of [
    [3, MIN_DELIVERIES + PADDING],
    [0, MIN_RECORDED + PADDING],
    [1, MIN_EVENT + PADDING],
  ] as const) {
    if (excess <= 0) break;
    const current = widths[column] ?? 0;
    const narrower = Math.max(Math.min(minimum, current), current - excess);
    excess -= current - narrower;
    widths[column] = narrower;
  }
  return widths;
}
