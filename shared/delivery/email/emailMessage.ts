// The e-mail an event becomes: a one-line subject naming the transition, a plain-text part and a simple
// HTML part (inline styles only, since mail clients drop style sheets). Pure, so the SMTP sender and the
// SNS e-mail body share it. Contact details appear only when the event carries them: the caller passes
// `eventForSubscriber(event, includeContactDetails)`.
import type { Change, EventType, OrderEvent } from '../../events/orderEvent.js';
import { isSampleEvent } from '../../events/sampleEvent.js';

export interface EmailMessage {
  /** One line, without CR/LF, so it can never smuggle another header in. */
  subject: string;
  text: string;
  html: string;
}

type Field = readonly [label: string, value: string];

/** "Payment method: " — the longest label and its gap, so values line up whichever rows are present. */
const LABEL_WIDTH = 16;

const CHANGE_LABELS: Record<Change['field'], string> = {
  status: 'Status',
  canceled_at: 'Canceled at',
  completed_at: 'Completed at',
  pickup_date: 'Pickup date',
  establishment: 'Establishment',
};

/** The subject, text and HTML of the e-mail for one event. */
export function formatEmail(event: OrderEvent): EmailMessage {
  const subject = emailSubject(event);
  const fields = orderFields(event);
  const items = itemLines(event);
  const changes = changeLines(event);
  return {
    subject,
    text: textBody(event, fields, items, changes),
    html: htmlBody(event, subject, fields, items, changes),
  };
}

/** In front of a sample's subject, so that neither an inbox nor a mail filter takes it for an order. */
export const SAMPLE_SUBJECT_PREFIX = '[TEST] ';
const SAMPLE_NOTICE = 'TEST: sent by meal-notifier send-test to try this address. It is not a real order.';

/** e.g. "Order R-1042 canceled — Canteen 2, pickup 2026-11-23"; "[TEST] …" for send-test's sample. */
export function emailSubject(event: OrderEvent): string {
  const order = event.data.order;
  const where = `${singleLine(order.establishment.name)}, pickup ${singleLine(order.pickup_date)}`;
  const subject = `${headline(event.type, singleLine(order.reference), singleLine(order.status))} — ${where}`;
  return isSampleEvent(event) ? `${SAMPLE_SUBJECT_PREFIX}${subject}` : subject;
}

function headline(type: EventType, reference: string, status: string): string {
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
  }
}

/**
 * Control characters (CR and LF above all) become spaces and runs of white space one space: the values
 * come from the API, and a line break in a subject would start a new mail header.
 */
function singleLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function orderFields(event: OrderEvent): Field[] {
  const { order, organization } = event.data;
  const customer = order.customer;
  const fields: Field[] = [
    ['Reference', order.reference],
    ['Status', order.status],
    ['Establishment', order.establishment.name],
    ['Pickup date', order.pickup_date],
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
    ['Payment method', order.payment_method],
    ['Organization', organization.name],
  );
  return fields.map(([label, value]) => [label, singleLine(value)] as const);
}

function itemLines(event: OrderEvent): string[] {
  return event.data.order.items.map((item) => `${item.quantity} × ${singleLine(item.name)}`);
}

/**
 * What moved, e.g. "Status: pending → canceled". A new order's changes are every field appearing from
 * nothing, which the fields already show, so it lists none.
 */
function changeLines(event: OrderEvent): string[] {
  if (event.type === 'order.created') return [];
  const establishment = event.data.order.establishment;
  const shown = (change: Change, value: string | null): string => {
    if (value === null) return 'none';
    // The diff tracks the establishment by uuid; the current one has a name worth showing instead.
    if (change.field === 'establishment' && value === establishment.uuid) return establishment.name;
    return value;
  };
  return event.data.changes.map((change) =>
    singleLine(`${CHANGE_LABELS[change.field]}: ${shown(change, change.from)} → ${shown(change, change.to)}`),
  );
}

function textBody(event: OrderEvent, fields: Field[], items: string[], changes: string[]): string {
  const lines = isSampleEvent(event) ? [SAMPLE_NOTICE, ''] : [];
  lines.push(...fields.map(([label, value]) => `${`${label}:`.padEnd(LABEL_WIDTH)}${value}`));
  if (items.length > 0) lines.push('', 'Items:', ...items.map((item) => `  ${item}`));
  if (changes.length > 0) lines.push('', 'Changes:', ...changes.map((change) => `  ${change}`));
  lines.push('', footer(event));
  return `${lines.join('\n')}\n`;
}

/** The event's identity, so a reader can match the mail with a webhook delivery or a log line. */
function footer(event: OrderEvent): string {
  return singleLine(`Event ${event.type} ${event.id}, detected ${event.time}.`);
}

const CELL = 'padding:4px 12px 4px 0;vertical-align:top;text-align:left';
const HEADING = 'font-size:15px;margin:20px 0 6px';
const SAMPLE_BANNER =
  'background:#fff3cd;border:1px solid #e0c36c;padding:8px 12px;margin:0 0 12px;font-weight:bold';

function htmlBody(
  event: OrderEvent,
  subject: string,
  fields: Field[],
  items: string[],
  changes: string[],
): string {
  const rows = fields
    .map(
      ([label, value]) =>
        `<tr><th style="${CELL};color:#555;font-weight:normal">${escapeHtml(label)}</th>` +
        `<td style="${CELL}">${escapeHtml(value)}</td></tr>`,
    )
    .join('\n');
  const list = (title: string, lines: string[]): string =>
    lines.length === 0
      ? ''
      : `<h2 style="${HEADING}">${title}</h2>\n<ul style="margin:0;padding-left:20px">\n` +
        `${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}\n</ul>\n`;
  return (
    '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"></head>\n' +
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#222">\n' +
    `<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(subject)}</h1>\n` +
    (isSampleEvent(event) ? `<p style="${SAMPLE_BANNER}">${escapeHtml(SAMPLE_NOTICE)}</p>\n` : '') +
    `<table style="border-collapse:collapse">\n${rows}\n</table>\n` +
    list('Items', items) +
    list('Changes', changes) +
    `<p style="color:#777;font-size:12px;margin-top:20px">${escapeHtml(footer(event))}</p>\n` +
    '</body>\n</html>\n'
  );
}

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Every user-provided string goes through this before it reaches the HTML part. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);
}
