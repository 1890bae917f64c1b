// `meal-notifier events` for people: one row per event, newest first, with when it was recorded, its
// type and id (what replay takes), its order, and one line per subscriber saying what became of it; laid
// out to fit the width given (see renderTable); ids stay whole, so they can be copied.
import type { ListedEvent, SubscriberDelivery } from '../../shared/operations/eventHistory.js';
import { counted } from '../../shared/text/counted.js';
import { humanDuration } from '../../shared/time/humanDuration.js';
import { renderTable } from './fitTable.js';

export interface EventsTableOptions {
  nowMs: number;
  /** The widest the table may be, borders included; no limit when undefined. */
  width: number | undefined;
  /** Organization names by id; each row names its organization when there are several. */
  organizationNames: ReadonlyMap<string, string>;
}

const HEAD = ['Recorded', 'Event', 'Order', 'Deliveries'];

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
  return renderTable({ head: HEAD, rows }, options.width);
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
        : `${who} dead after ${counted(attempts, 'attempt')}${error}`;
    case 'routed':
      return `${who} routed`;
  }
}
