// The e-mail a prep_changed becomes (pure): a subject naming the kitchen, the day and the summary it
// amends, a text part whose tables line up in a fixed-width font (the item deltas, was and now, then the
// orders behind them by reference: what each did is its own order message's to say, prepChangeText.ts),
// and an HTML part with the same tables. Every value typed by people is one line in
// the text and escaped in the HTML.
import type { PrepChangedEvent } from '../../events/prepChangedEvent.js';
import { itemNames, ordersBehind, summaryClock } from '../../events/prepChangeText.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import { localTimeLabel } from '../../time/localTime.js';
import {
  type EmailField,
  type EmailMessage,
  escapeHtml,
  eventFooter,
  HTML_STYLES,
  htmlDocument,
  htmlFields,
  htmlNotice,
  SAMPLE_SUBJECT_PREFIX,
  singleLine,
  textFields,
} from './emailText.js';
import { htmlTable, textTable } from './prepSummaryEmail.js';

type Row = readonly string[];

/** "Summary closed at: " — the longest label and its gap. */
const LABEL_WIDTH = 19;
/** An item name or reference longer than this pushes its own row's next cell out rather than every row's. */
const NAME_COLUMN_MAX = 40;

const SAMPLE_NOTICE =
  'TEST: sent by meal-notifier send-test to try this address. It is not a real change: nothing to prepare.';

const NOTES_ONLY = 'No quantity changed: only notes.';

/**
 * e.g. "Prep changes: Main Canteen, Thu 26 Nov — since the 11:00 summary"; "[TEST] " in front for a sample.
 * It starts with a letter, as an SNS subject must.
 */
export function prepChangedSubject(event: PrepChangedEvent): string {
  const { establishment, pickup_date, summary_closed_at } = event.data;
  const clock = singleLine(summaryClock(summary_closed_at));
  const subject = `Prep changes: ${singleLine(establishment.name)}, ${dayLabel(pickup_date)} — since the ${clock} summary`;
  return isSampleEvent(event) ? `${SAMPLE_SUBJECT_PREFIX}${subject}` : subject;
}

export function formatPrepChangedEmail(event: PrepChangedEvent): EmailMessage {
  const subject = prepChangedSubject(event);
  const data = event.data;
  const fields: EmailField[] = (
    [
      ['Organization', data.organization.name],
      ['Establishment', data.establishment.name],
      ['Pickup date', `${dayLabel(data.pickup_date)} (${data.pickup_date})`],
      ['Summary closed at', localTimeLabel(data.summary_closed_at)],
      ['Summary', data.summary_id],
    ] as const
  ).map(([label, value]) => [label, singleLine(value)] as const);
  const names = itemNames(data.items);
  const items: Row[] = data.items.map((item, index) => [
    singleLine(names[index] ?? item.name),
    String(item.from),
    String(item.to),
  ]);
  const orders: Row[] = ordersBehind(event).map((reference) => [singleLine(reference)]);
  const more = {
    items: moreLine(data.items_omitted, 'more item'),
    orders: moreLine(data.orders_omitted, 'more order'),
  };
  return {
    subject,
    text: textBody(event, fields, items, orders, more),
    html: htmlBody(event, subject, fields, items, orders, more),
  };
}

interface MoreLines {
  items: string | undefined;
  orders: string | undefined;
}

/** "…and 3 more items", for the ones the event itself left out to fit. */
function moreLine(omitted: number | undefined, noun: string): string | undefined {
  return omitted === undefined ? undefined : `…and ${counted(omitted, noun)}`;
}

function textBody(
  event: PrepChangedEvent,
  fields: EmailField[],
  items: Row[],
  orders: Row[],
  more: MoreLines,
): string {
  const lines = isSampleEvent(event) ? [SAMPLE_NOTICE, ''] : [];
  lines.push(...textFields(fields, LABEL_WIDTH));
  lines.push('', 'Quantities:');
  lines.push(
    ...(items.length === 0 && more.items === undefined
      ? [`  ${NOTES_ONLY}`]
      : textTable(['Item', 'Was', 'Now'], items, ['left', 'right', 'right'], [NAME_COLUMN_MAX])),
  );
  if (more.items !== undefined) lines.push(`  ${more.items}`);
  lines.push('', 'Orders behind them:');
  lines.push(...textTable(['Order'], orders, ['left'], [NAME_COLUMN_MAX]));
  if (more.orders !== undefined) lines.push(`  ${more.orders}`);
  lines.push('', eventFooter(event));
  return `${lines.join('\n')}\n`;
}

function htmlBody(
  event: PrepChangedEvent,
  subject: string,
  fields: EmailField[],
  items: Row[],
  orders: Row[],
  more: MoreLines,
): string {
  const paragraph = (text: string | undefined) => (text === undefined ? '' : `<p>${escapeHtml(text)}</p>\n`);
  const parts = [
    isSampleEvent(event) ? htmlNotice(SAMPLE_NOTICE) : '',
    htmlFields(fields),
    `<h2 style="${HTML_STYLES.heading}">Quantities</h2>\n`,
    items.length === 0 && more.items === undefined
      ? paragraph(NOTES_ONLY)
      : htmlTable(['Item', 'Was', 'Now'], items, [false, true, true]),
    paragraph(more.items),
    `<h2 style="${HTML_STYLES.heading}">Orders behind them</h2>\n`,
    htmlTable(['Order'], orders, [false]),
    paragraph(more.orders),
  ];
  return htmlDocument(subject, parts.join(''), event);
}
