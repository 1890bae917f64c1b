// The e-mail a digest becomes (pure): "Digest: 14 events, 11:00–12:00 — North School", the counts by type
// and by establishment, then one row per event (reference, type, establishment, pickup date, time), in a
// text part that lines up in a fixed-width font and an HTML part with the same tables. A part of a split
// digest says so first ("Digest part 2 of 4: …", which survives SNS's cut of a long subject) and names
// its run of events; the last part of a cut digest says how many events no part lists.
import type { DigestEvent } from '../../events/digestEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import { localTimeLabel } from '../../time/localTime.js';
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

/** The period's events, whether this message lists them all or is one part: the counts cover them all. */
export function periodEventCount(event: DigestEvent): number {
  return event.data.by_type.reduce((sum, entry) => sum + entry.count, 0);
}

export function digestSubject(event: DigestEvent): string {
  const count = counted(periodEventCount(event), 'event');
  const { part } = event.data;
  const heading = part === undefined ? 'Digest' : `Digest part ${part.number} of ${part.of}`;
  return `${heading}: ${count}, ${digestPeriodLabel(event)} — ${singleLine(event.data.organization.name)}`;
}

/** The lines a part adds under the opening one: which events it lists, and what a cut left out. */
function partLines(event: DigestEvent): string[] {
  const { part, events } = event.data;
  if (part === undefined) return [];
  const last = part.first_event + events.length - 1;
  const lines = [
    `Part ${part.number} of ${part.of}: events ${part.first_event} to ${last} of ${periodEventCount(event)}.`,
  ];
  if (part.left_out > 0) {
    lines.push(
      `Cut after ${counted(part.of, 'part')}: the period's last ${counted(part.left_out, 'event')} ${part.left_out === 1 ? 'is' : 'are'} left out of this digest.`,
    );
  }
  return lines;
}

/** The rows and lines both parts show, in the order they show them. */
function digestContent(event: DigestEvent) {
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
        singleLine(dayLabel(entry.pickup_date)),
        clockOf(entry.time),
      ] as const,
  );
  const zone = data.organization.time_zone;
  const period = `${localTimeLabel(data.period_start, zone)} to ${localTimeLabel(data.period_end, zone)} (${zone})`;
  const opening = [`${counted(periodEventCount(event), 'event')} from ${period}.`, ...partLines(event)];
  return { byType, byEstablishment, orders, opening };
}

const ORDERS_HEADING = ['Reference', 'Type', 'Establishment', 'Pickup date', 'Time'] as const;

/** The subject and text part alone: what SNS e-mail carries, and what is measured against its limit. */
export function formatDigestText(event: DigestEvent): Omit<EmailMessage, 'html'> {
  const { byType, byEstablishment, orders, opening } = digestContent(event);
  const text = [
    ...opening,
    '',
    'By type:',
    ...textTable(['Type', 'Events'], byType, ['left', 'right'], [NAME_COLUMN_MAX]),
    '',
    'By establishment:',
    ...textTable(['Establishment', 'Events'], byEstablishment, ['left', 'right'], [NAME_COLUMN_MAX]),
    '',
    'Orders:',
    ...textTable(
      ORDERS_HEADING,
      orders,
      ['left', 'left', 'left', 'left', 'left'],
      [undefined, undefined, NAME_COLUMN_MAX],
    ),
    '',
    eventFooter(event),
  ].join('\n');
  return { subject: digestSubject(event), text: `${text}\n` };
}

export function formatDigestEmail(event: DigestEvent): EmailMessage {
  const { subject, text } = formatDigestText(event);
  const { byType, byEstablishment, orders, opening } = digestContent(event);
  const html = htmlDocument(
    subject,
    [
      opening.map((line) => `<p>${escapeHtml(line)}</p>\n`).join(''),
      `<h2 style="${HTML_STYLES.heading}">By type</h2>\n`,
      htmlTable(['Type', 'Events'], byType, [false, true]),
      `<h2 style="${HTML_STYLES.heading}">By establishment</h2>\n`,
      htmlTable(['Establishment', 'Events'], byEstablishment, [false, true]),
      `<h2 style="${HTML_STYLES.heading}">Orders</h2>\n`,
      htmlTable(ORDERS_HEADING, orders, [false, false, false, false, false]),
    ].join(''),
    event,
  );
  return { subject, text, html };
}
