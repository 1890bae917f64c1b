// The plain-text line for a transition's field (status, the cancellation and completion times, the pickup
// date, the establishment), one wording for Slack and e-mail, each of which escapes it for its own medium:
// "Status: pending → canceled", "Canceled at 10:20, Sun 29 Nov", "Pickup date: Tue 24 Nov → Wed 25 Nov",
// "Establishment: Side Counter → Main Canteen". Times read on the organization's clock (localTime.ts),
// dates with their weekday (dayLabel.ts), as people read them.
import { dayLabel } from '../time/dayLabel.js';
import { localTimeLabel } from '../time/localTime.js';
import type { FieldChange, OrderEvent, OrderSummary } from './orderEvent.js';

const STAMP_WORDS = {
  canceled_at: { at: 'Canceled at', undone: 'No longer canceled', was: 'was canceled at' },
  completed_at: { at: 'Completed at', undone: 'No longer completed', was: 'was completed at' },
} as const;

/**
 * What `change` moved, in one line; undefined when it moved nothing a person reads (a time from none to
 * none). `timeZone` is the event's `organization.time_zone`: without it times are said in UTC, and so
 * labelled. `unnamed` says an establishment the event does not name: its uuid by default, which an office
 * can look up; a channel says "another establishment".
 */
export function fieldChangeText(
  change: FieldChange,
  order: Pick<OrderSummary, 'establishment'>,
  timeZone: string | undefined,
  unnamed: (uuid: string) => string = (uuid) => uuid,
): string | undefined {
  const none = (value: string | null, say: (value: string) => string = (text) => text) =>
    value === null ? 'none' : say(value);
  switch (change.field) {
    case 'status':
      return `Status: ${none(change.from)} → ${none(change.to)}`;
    case 'pickup_date':
      return `Pickup date: ${none(change.from, dayLabel)} → ${none(change.to, dayLabel)}`;
    case 'establishment':
      return `Establishment: ${establishmentName(change, 'from', order, unnamed)} → ${establishmentName(change, 'to', order, unnamed)}`;
    case 'canceled_at':
    case 'completed_at': {
      const words = STAMP_WORDS[change.field];
      const at = (value: string) => localTimeLabel(value, timeZone);
      if (change.to !== null) {
        const was = change.from === null || change.from === change.to ? '' : ` (was ${at(change.from)})`;
        return `${words.at} ${at(change.to)}${was}`;
      }
      return change.from === null ? undefined : `${words.undone} (${words.was} ${at(change.from)})`;
    }
  }
}

/** The zone an order event's times are read in: its organization's, when the event carries it. */
export function eventTimeZone(event: OrderEvent): string | undefined {
  return event.data.organization.time_zone;
}

// The diff tracks the establishment by uuid, which means little to a person: its name where the event
// knows it.
function establishmentName(
  change: FieldChange,
  side: 'from' | 'to',
  order: Pick<OrderSummary, 'establishment'>,
  unnamed: (uuid: string) => string,
): string {
  const uuid = change[side];
  if (uuid === null) return 'none';
  const named = side === 'from' ? change.from_name : change.to_name;
  if (named !== undefined) return named;
  return uuid === order.establishment.uuid ? order.establishment.name : unnamed(uuid);
}
