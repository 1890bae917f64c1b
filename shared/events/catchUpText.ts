// The words of a catch-up, one wording for Slack, e-mail and the CLI, each of which escapes it for its own
// medium: how many changes and over what span, why they come as one message, and what to call each type.
import { counted } from '../text/counted.js';
import { dayLabel } from '../time/dayLabel.js';
import { humanDuration } from '../time/humanDuration.js';
import type { CatchUpData } from './catchUpEvent.js';
import type { OrderEventType } from './orderEvent.js';

/** Each type as a person counts it: "3 × New order". */
export const CATCH_UP_TYPE_LABELS: Record<OrderEventType, string> = {
  'order.created': 'New order',
  'order.completed': 'Completed',
  'order.canceled': 'Canceled',
  'order.archived': 'Archived',
  'order.status_changed': 'Status changed',
  'order.rescheduled': 'Rescheduled',
  'order.updated': 'Changed',
};

export function typeLabel(type: string): string {
  return CATCH_UP_TYPE_LABELS[type as OrderEventType] ?? type;
}

/** "42 changes" (events, counted as a person reads them). */
export function changesCounted(data: CatchUpData): string {
  return counted(data.events, 'change');
}

/**
 * "HH:MM" of an RFC 3339 time as its offset shows it (the organization's, when the catch-up knew its zone),
 * "HH:MM UTC" when it was written in UTC; with the day in front when `withDay`.
 */
export function clockLabel(time: string, withDay = false): string {
  const clock = time.slice(11, 16);
  const utc = time.endsWith('Z') ? ' UTC' : '';
  return withDay ? `${dayLabel(time.slice(0, 10))} ${clock}${utc}` : `${clock}${utc}`;
}

/** "10:02–10:19", or "Mon 23 Nov 17:30 – Tue 24 Nov 08:00" across days; "10:02" for one minute. */
export function spanLabel(from: string, to: string): string {
  if (clockLabel(from, true) === clockLabel(to, true)) return clockLabel(from);
  if (from.slice(0, 10) === to.slice(0, 10))
    return `${clockLabel(from).replace(/ UTC$/, '')}–${clockLabel(to)}`;
  return `${clockLabel(from, true)} – ${clockLabel(to, true)}`;
}

/** Why the changes come as one message, in one or two sentences (plain text). */
export function catchUpReason(data: CatchUpData): string {
  const threshold = humanDuration(data.catch_up_after * 1000);
  const span = spanLabel(data.first_change_at, data.last_change_at);
  const these = data.events === 1 ? 'This change' : `These ${changesCounted(data)}`;
  const it = data.events === 1 ? 'it' : 'they';
  return `${why(data)}. ${these} (${span}) happened more than ${threshold} before ${it} could reach you, so ${data.events === 1 ? 'it is' : 'they are'} summed up here instead of sent one by one.`;
}

function why(data: CatchUpData): string {
  const organization = data.organization.name;
  if (data.unpolled !== undefined) {
    const gap = humanDuration(Date.parse(data.unpolled.to) - Date.parse(data.unpolled.from));
    return `${organization} was not polled for ${gap} (${spanLabel(data.unpolled.from, data.unpolled.to)})`;
  }
  if (data.found_late === data.events) return `They were found late: ${organization} was not polled in time`;
  if (data.found_late === 0) return 'Notifications were held up on their way to you';
  return `Some were found late (${organization} was not polled in time), the others held up on their way to you`;
}
