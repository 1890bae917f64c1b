// The e-mail an event becomes: a one-line subject naming the transition (and whether it came after
// closing), a plain-text part and a simple HTML part (inline styles only, since mail clients drop style
// sheets); a prep summary has its own (prepSummaryEmail.ts), and so have a prep_changed and a catch-up.
// An order's notes come before its items, those naming an allergy or a diet first and marked ALLERGY/DIET
// (with the organization's highlight words); an update's changes come first of all. Pure, so the SMTP
// sender and the SNS e-mail body share it. Contact details appear only when the event carries them: the
// caller passes `eventForSubscriber(event, includeContactDetails)`.

import { isCatchUp } from '../../events/catchUpEvent.js';
import { changedContent, contentChangeText, isFlaggedChange } from '../../events/contentChangeText.js';
import { eventTimeZone, fieldChangeText } from '../../events/fieldChangeText.js';
import { DEFAULT_HIGHLIGHT_WORDS } from '../../events/noteHighlights.js';
import { isPrepChanged, isPrepSummary, type NotifierEvent } from '../../events/notifierEvent.js';
import { isFieldChange, type OrderEvent, type OrderEventType } from '../../events/orderEvent.js';
import { orderNotes } from '../../events/orderNotes.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import { paymentMethodLabel } from '../paymentMethodLabel.js';
import { catchUpSubject, formatCatchUpEmail } from './catchUpEmail.js';
import {
  type EmailField,
  type EmailMessage,
  type EmailNote,
  escapeHtml,
  eventFooter,
  FLAG_LABEL,
  HTML_STYLES,
  htmlDocument,
  htmlFields,
  htmlNotes,
  htmlNotice,
  SAMPLE_SUBJECT_PREFIX,
  singleLine,
  textFields,
  textNotes,
} from './emailText.js';
import { formatPrepChangedEmail, prepChangedSubject } from './prepChangedEmail.js';
import { formatPrepSummaryEmail, prepSummarySubject } from './prepSummaryEmail.js';

/** "Payment method: " — the longest label and its gap, so values line up whichever rows are present. */
const LABEL_WIDTH = 16;

/** What an order e-mail says first when the day's prep summary was already sent. */
const AFTER_CLOSING_NOTE =
  'After closing: the prep summary for this day was already sent, and this change is not in it.';

/** What an order e-mail lists, each already on one line. */
interface OrderParts {
  fields: EmailField[];
  notes: EmailNote[];
  items: string[];
  /** "Status: pending → canceled", "Canceled at 10:20, Sun 29 Nov"; an update's flagged ones marked. */
  changes: { text: string; flagged: boolean }[];
}

/**
 * The subject, text and HTML of the e-mail for one event.
 * @param highlightWords the words of the event's organization that flag a note (a prep summary carries
 * its flags already)
 */
export function formatEmail(
  event: NotifierEvent,
  highlightWords: readonly string[] = DEFAULT_HIGHLIGHT_WORDS,
): EmailMessage {
  if (isPrepSummary(event)) return formatPrepSummaryEmail(event);
  if (isCatchUp(event)) return formatCatchUpEmail(event);
  if (isPrepChanged(event)) return formatPrepChangedEmail(event);
  const subject = emailSubject(event, highlightWords);
  const parts: OrderParts = {
    fields: orderFields(event),
    notes: orderNotes(event.data.order, highlightWords).map(({ item, note, flagged }) => ({
      label: item === undefined ? 'Order' : item.name,
      note,
      flagged,
    })),
    items: itemLines(event),
    changes: changeLines(event, highlightWords),
  };
  return { subject, text: textBody(event, parts), html: htmlBody(event, subject, parts) };
}

const SAMPLE_NOTICE = 'TEST: sent by meal-notifier send-test to try this address. It is not a real order.';

/**
 * e.g. "Order R-1042 canceled — Canteen 2, pickup Mon 23 Nov", "After closing: New order R-1042 — …",
 * "Prep summary: Main Canteen — 42 orders for Tue 24 Nov".
 */
export function emailSubject(
  event: NotifierEvent,
  highlightWords: readonly string[] = DEFAULT_HIGHLIGHT_WORDS,
): string {
  if (isPrepSummary(event)) return prepSummarySubject(event);
  if (isPrepChanged(event)) return prepChangedSubject(event);
  if (isCatchUp(event)) return catchUpSubject(event);
  const order = event.data.order;
  const where = `${singleLine(order.establishment.name)}, pickup ${singleLine(dayLabel(order.pickup_date))}`;
  const late = event.data.after_closing ? 'After closing: ' : '';
  const what = event.type === 'order.updated' ? updatedWhat(event, highlightWords) : '';
  const subject = `${late}${headline(event.type, singleLine(order.reference), singleLine(order.status))}${what} — ${where}`;
  return isSampleEvent(event) ? `${SAMPLE_SUBJECT_PREFIX}${subject}` : subject;
}

/** ": items, notes", and " [ALLERGY/DIET]" when a note written by the update names one. */
function updatedWhat(event: OrderEvent, highlightWords: readonly string[]): string {
  const what = changedContent(event.data.changes);
  if (what === undefined) return '';
  const flagged = event.data.changes.some((change) => isFlaggedChange(change, highlightWords));
  return `: ${what}${flagged ? ` [${FLAG_LABEL}]` : ''}`;
}

function headline(type: OrderEventType, reference: string, status: string): string {
  switch (type) {
    case 'order.created':
      return `New order ${reference}`;
    case 'order.completed':
      return `Order ${reference} completed`;
    case 'order.canceled':
      return `Order ${reference} canceled`;
    case 'order.archived':
      return `Order ${reference} archived`;
    case 'order.status_changed':
      return `Order ${reference} is now ${status}`;
    case 'order.rescheduled':
      return `Order ${reference} rescheduled`;
    case 'order.updated':
      return `Order ${reference} changed`;
  }
}

function orderFields(event: OrderEvent): EmailField[] {
  const { order, organization } = event.data;
  const customer = order.customer;
  const fields: EmailField[] = [
    ['Reference', order.reference],
    ['Status', order.status],
    ['Establishment', order.establishment.name],
    ['Pickup date', pickupDateText(order.pickup_date)],
    ['Customer', customer.class ? `${customer.name} (${customer.class})` : customer.name],
  ];
  const parent = customer.parent;
  if (parent) {
    fields.push(['Parent', parent.name]);
    // Present only for subscribers that opted in; an empty value says nothing worth a row.
    if (parent.email) fields.push(['Parent e-mail', parent.email]);
    if (parent.phone) fields.push(['Parent phone', parent.phone]);
  }
  fields.push(
    ['Total', order.total.formatted || `${order.total.amount} ${order.total.currency}`],
    ['Payment method', paymentMethodLabel(order.payment_method)],
    ['Organization', organization.name],
  );
  return fields.map(([label, value]) => [label, singleLine(value)] as const);
}

function itemLines(event: OrderEvent): string[] {
  const { items, items_omitted: omitted } = event.data.order;
  const lines = items.map((item) => `${item.quantity} × ${singleLine(item.name)}`);
  // Left out of the event itself, which would otherwise outgrow what carries it.
  return omitted ? [...lines, `…and ${counted(omitted, 'more item')}`] : lines;
}

/** "Wed 2 Dec (2026-12-02)": the weekday people plan by, the date as the API and a spreadsheet write it. */
function pickupDateText(date: string): string {
  const label = dayLabel(date);
  return label === date ? date : `${label} (${date})`;
}

/**
 * What moved, e.g. "Status: pending → canceled", "Canceled at 10:20, Sun 29 Nov" (on the organization's
 * clock). A new order's changes are every field appearing from nothing, which the fields already show, so
 * it lists none.
 */
function changeLines(event: OrderEvent, highlightWords: readonly string[]): OrderParts['changes'] {
  if (event.type === 'order.created') return [];
  const zone = eventTimeZone(event);
  return event.data.changes.flatMap((change) => {
    const text = isFieldChange(change)
      ? fieldChangeText(change, event.data.order, zone)
      : contentChangeText(change);
    if (text === undefined) return [];
    return [{ text: singleLine(text), flagged: isFlaggedChange(change, highlightWords) }];
  });
}

/** An update's changes are its news: they come first, above the order; other changes under it. */
function changesFirst(event: OrderEvent): boolean {
  return event.type === 'order.updated';
}

function textBody(event: OrderEvent, { fields, notes, items, changes }: OrderParts): string {
  const lines = isSampleEvent(event) ? [SAMPLE_NOTICE, ''] : [];
  if (event.data.after_closing) lines.push(AFTER_CLOSING_NOTE, '');
  const changeList = changes.map(({ text, flagged }) => `  ${flagged ? `[${FLAG_LABEL}] ` : ''}${text}`);
  if (changesFirst(event) && changes.length > 0) lines.push('Changed:', ...changeList, '');
  lines.push(...textFields(fields, LABEL_WIDTH));
  if (notes.length > 0) lines.push('', 'Notes:', ...textNotes(notes).map((note) => `  ${note}`));
  if (items.length > 0) lines.push('', 'Items:', ...items.map((item) => `  ${item}`));
  if (!changesFirst(event) && changes.length > 0) lines.push('', 'Changes:', ...changeList);
  lines.push('', eventFooter(event));
  return `${lines.join('\n')}\n`;
}

const HEADING = HTML_STYLES.heading;

function htmlBody(event: OrderEvent, subject: string, { fields, notes, items, changes }: OrderParts): string {
  const list = (title: string, lines: { text: string; flagged: boolean }[]): string =>
    lines.length === 0
      ? ''
      : `<h2 style="${HEADING}">${title}</h2>\n<ul style="margin:0;padding-left:20px">\n` +
        `${lines.map(htmlListItem).join('\n')}\n</ul>\n`;
  const sample = isSampleEvent(event) ? htmlNotice(SAMPLE_NOTICE) : '';
  const warning = event.data.after_closing ? htmlNotice(AFTER_CLOSING_NOTE) : '';
  const noteTable = notes.length > 0 ? `<h2 style="${HEADING}">Notes</h2>\n${htmlNotes(notes)}` : '';
  const itemList = list(
    'Items',
    items.map((text) => ({ text, flagged: false })),
  );
  return htmlDocument(
    subject,
    sample +
      warning +
      (changesFirst(event) ? list('Changed', changes) : '') +
      htmlFields(fields) +
      noteTable +
      itemList +
      (changesFirst(event) ? '' : list('Changes', changes)),
    event,
  );
}

function htmlListItem({ text, flagged }: { text: string; flagged: boolean }): string {
  if (!flagged) return `<li>${escapeHtml(text)}</li>`;
  return (
    `<li style="${HTML_STYLES.flaggedRow}"><span style="${HTML_STYLES.flag}">${FLAG_LABEL}</span> ` +
    `${escapeHtml(text)}</li>`
  );
}
