// The e-mail a digest becomes (pure): "Digest: 14 events, 11:00–12:00 — North School", the counts by type
// and by establishment, then one row per event (reference, type, establishment, pickup date, time), in a
// text part that lines up in a fixed-width font and an HTML part with the same tables.
import type { DigestEvent } from '../../events/digestEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import type { EmailMessage } from './emailText.js';
import { escapeHtml, eventFooter, HTML_STYLES, htmlDocument, singleLine } from './emailText.js';
import { htmlTable, textTable } from './prepSummaryEmail.js';

const NAME_COLUMN_MAX = 40;

/** "HH:MM" of an RFC 3339 time with offset, as the organization's clock shows it. */
function clockOf(time: string): string {
  return time.slice(11, 16);
}

/** "11:00–12:00" for an hour; "Mon 23 Nov 17:30 – Tue 24 Nov 17:30" for a day. */
export function digestPeriodLabel(event: DigestEvent): string {
  const { period_start: start, period_end: end, every } = event.data;
  if (every === '1h') return `${clockOf(start)}–${clockOf(end)}`;
  return `${dayLabel(start.slice(0, 10))} ${clockOf(start)} – ${dayLabel(end.slice(0, 10))} ${clockOf(end)}`;
}

export function digestSubject(event: DigestEvent): string {
  const count = counted(event.data.events.length, 'event');
  return `Digest: ${count}, ${digestPeriodLabel(event)} — ${singleLine(event.data.organization.name)}`;
}

export function formatDigestEmail(event: DigestEvent): EmailMessage {
  const subject = digestSubject(event);
  const { data } = event;
  const byType = data.by_type.map((entry) => [singleLine(entry.name), String(entry.count)] as const);
  const byEstablishment = data.by_establishment.map(
    (entry) => [singleLine(entry.name), String(entry.count)] as const,
  );
  const orders = data.events.map(
    (entry) =>
      [
        singleLine(entry.reference),
        entry.type,
        singleLine(entry.establishment),
        singleLine(entry.pickup_date),
        clockOf(entry.time),
      ] as const,
  );
  const period = `${data.period_start} to ${data.period_end} (${data.organization.time_zone})`;
  const ordersHeading = ['Reference', 'Type', 'Establishment', 'Pickup date', 'Time'] as const;
  const text = [
    `${counted(data.events.length, 'event')} from ${period}.`,
    '',
    'By type:',
    ...textTable(['Type', 'Events'], byType, ['left', 'right'], [NAME_COLUMN_MAX]),
    '',
    'By establishment:',
    ...textTable(['Establishment', 'Events'], byEstablishment, ['left', 'right'], [NAME_COLUMN_MAX]),
    '',
    'Orders:',
    ...textTable(
      ordersHeading,
      orders,
      ['left', 'left', 'left', 'left', 'left'],
      [undefined, undefined, NAME_COLUMN_MAX],
    ),
    '',
    eventFooter(event),
  ].join('\n');
  const html = htmlDocument(
    subject,
    [
      `<p>${escapeHtml(`${counted(data.events.length, 'event')} from ${period}.`)}</p>\n`,
      `<h2 style="${HTML_STYLES.heading}">By type</h2>\n`,
      htmlTable(['Type', 'Events'], byType, [false, true]),
      `<h2 style="${HTML_STYLES.heading}">By establishment</h2>\n`,
      htmlTable(['Establishment', 'Events'], byEstablishment, [false, true]),
      `<h2 style="${HTML_STYLES.heading}">Orders</h2>\n`,
      htmlTable(ordersHeading, orders, [false, false, false, false, false]),
    ].join(''),
    event,
  );
  return { subject, text: `${text}\n`, html };
}
