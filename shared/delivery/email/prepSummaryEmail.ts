// The e-mail a prep summary becomes (pure): a subject with the count and the day, a text part whose
// tables line up in a fixed-width font, and an HTML part with the same tables. Every item is listed:
// unlike a Slack message, an e-mail has room for a whole menu. The day's notes follow the items, those the
// summary flagged (an allergy or a diet) first and marked ALLERGY/DIET.
import { summaryNoteLabel } from '../../events/orderNotes.js';
import type { PrepSummaryEvent } from '../../events/prepSummaryEvent.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import { localTimeLabel } from '../../time/localTime.js';
import {
  type EmailField,
  type EmailMessage,
  type EmailNote,
  escapeHtml,
  eventFooter,
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

type Row = readonly string[];

/** "Canceled before closing: " — the longest label and its gap. */
const LABEL_WIDTH = 25;
/** An item name longer than this pushes its own row's SKU out rather than every row's. */
const NAME_COLUMN_MAX = 40;

const SAMPLE_NOTICE =
  'TEST: sent by meal-notifier send-test to try this address. It is not a real summary: nothing to prepare.';

/** e.g. "Prep summary: Main Canteen — 42 orders for Tue 24 Nov"; "[TEST] " in front for a sample. */
export function prepSummarySubject(event: PrepSummaryEvent): string {
  const { establishment, orders, pickup_date, complete } = event.data;
  const count = counted(orders, 'order');
  const incomplete = complete ? '' : ' (incomplete)';
  const subject = `Prep summary: ${singleLine(establishment.name)} — ${count} for ${dayLabel(pickup_date)}${incomplete}`;
  return isSampleEvent(event) ? `${SAMPLE_SUBJECT_PREFIX}${subject}` : subject;
}

export function formatPrepSummaryEmail(event: PrepSummaryEvent): EmailMessage {
  const subject = prepSummarySubject(event);
  const summary = event.data;
  const warning = summary.complete
    ? undefined
    : singleLine(
        `Incomplete: ${summary.incomplete_reason ?? 'the figures could not all be had'}. Some orders may be missing.`,
      );
  const fields: EmailField[] = (
    [
      ['Organization', summary.organization.name],
      ['Establishment', summary.establishment.name],
      ['Pickup date', `${dayLabel(summary.pickup_date)} (${summary.pickup_date})`],
      ['Closed at', localTimeLabel(summary.closed_at)],
      ['Orders', String(summary.orders)],
      ['Canceled before closing', String(summary.canceled_before_closing)],
    ] as const
  ).map(([label, value]) => [label, singleLine(value)] as const);
  const items: Row[] = summary.items.map((item) => [
    String(item.quantity),
    singleLine(item.name),
    singleLine(item.sku),
  ]);
  const classes: Row[] = summary.classes.map((entry) => [className(entry.class), String(entry.orders)]);
  const notes: EmailNote[] = (summary.notes ?? []).map((note) => ({
    label: summaryNoteLabel(note),
    note: note.note,
    flagged: note.flagged,
  }));
  const tables = { items, notes, notesOmitted: summary.notes_omitted ?? 0, classes };
  return {
    subject,
    text: textBody(event, warning, fields, tables),
    html: htmlBody(event, subject, warning, fields, tables),
  };
}

interface Tables {
  items: Row[];
  notes: EmailNote[];
  notesOmitted: number;
  classes: Row[];
}

/** "…and 3 more notes (left out to keep the summary within an event's size)". */
function omittedNotes(count: number): string {
  return `…and ${counted(count, 'more note')} (left out to keep the summary within an event's size)`;
}

function className(name: string | null): string {
  return name === null || name.trim() === '' ? 'No class' : singleLine(name);
}

function textBody(
  event: PrepSummaryEvent,
  warning: string | undefined,
  fields: EmailField[],
  { items, notes, notesOmitted, classes }: Tables,
): string {
  const lines = isSampleEvent(event) ? [SAMPLE_NOTICE, ''] : [];
  if (warning !== undefined) lines.push(warning, '');
  lines.push(...textFields(fields, LABEL_WIDTH));
  lines.push('', 'To prepare:');
  lines.push(
    ...(items.length === 0
      ? ['  No items']
      : textTable(['Qty', 'Item', 'SKU'], items, ['right', 'left', 'left'], [undefined, NAME_COLUMN_MAX])),
  );
  if (notes.length > 0 || notesOmitted > 0) {
    lines.push('', 'Notes:', ...textNotes(notes).map((note) => `  ${note}`));
    if (notesOmitted > 0) lines.push(`  ${omittedNotes(notesOmitted)}`);
  }
  if (classes.length > 0) {
    lines.push(
      '',
      'Orders by class:',
      ...textTable(['Class', 'Orders'], classes, ['left', 'right'], [NAME_COLUMN_MAX]),
    );
  }
  lines.push('', eventFooter(event));
  return `${lines.join('\n')}\n`;
}

/** Rows under a heading, each column as wide as its widest cell (up to its cap), indented by two. */
export function textTable(
  heading: Row,
  rows: Row[],
  align: readonly ('left' | 'right')[],
  caps: readonly (number | undefined)[],
): string[] {
  const widths = heading.map((title, column) =>
    Math.min(
      caps[column] ?? Number.POSITIVE_INFINITY,
      Math.max(title.length, ...rows.map((row) => [...(row[column] ?? '')].length)),
    ),
  );
  const render = (row: Row) =>
    `  ${row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        const pad = ' '.repeat(Math.max(0, width - [...cell].length));
        // The last column is not padded: trailing spaces only make lines longer.
        if (column === row.length - 1 && align[column] !== 'right') return cell;
        return align[column] === 'right' ? pad + cell : cell + pad;
      })
      .join('  ')}`;
  return [render(heading), ...rows.map(render)];
}

const CELL = HTML_STYLES.cell;

function htmlBody(
  event: PrepSummaryEvent,
  subject: string,
  warning: string | undefined,
  fields: EmailField[],
  { items, notes, notesOmitted, classes }: Tables,
): string {
  const parts = [
    isSampleEvent(event) ? htmlNotice(SAMPLE_NOTICE) : '',
    warning === undefined ? '' : htmlNotice(warning),
    htmlFields(fields),
    `<h2 style="${HTML_STYLES.heading}">To prepare</h2>\n`,
    items.length === 0 ? '<p>No items</p>\n' : htmlTable(['Qty', 'Item', 'SKU'], items, [true, false, false]),
  ];
  if (notes.length > 0 || notesOmitted > 0) {
    parts.push(`<h2 style="${HTML_STYLES.heading}">Notes</h2>\n`);
    if (notes.length > 0) parts.push(htmlNotes(notes));
    if (notesOmitted > 0) parts.push(`<p>${escapeHtml(omittedNotes(notesOmitted))}</p>\n`);
  }
  if (classes.length > 0) {
    parts.push(
      `<h2 style="${HTML_STYLES.heading}">Orders by class</h2>\n`,
      htmlTable(['Class', 'Orders'], classes, [false, true]),
    );
  }
  return htmlDocument(subject, parts.join(''), event);
}

export function htmlTable(heading: Row, rows: Row[], numeric: readonly boolean[]): string {
  const cell = (tag: 'th' | 'td', text: string, column: number) => {
    const box = numeric[column] ? HTML_STYLES.numberCell : CELL;
    const rule = tag === 'th' ? ';border-bottom:1px solid #ccc' : '';
    return `<${tag} style="${box}${rule}">${escapeHtml(text)}</${tag}>`;
  };
  const head = `<tr>${heading.map((title, column) => cell('th', title, column)).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((text, column) => cell('td', text, column)).join('')}</tr>`);
  return `<table style="border-collapse:collapse">\n<thead>${head}</thead>\n<tbody>\n${body.join('\n')}\n</tbody>\n</table>\n`;
}
