// The Slack message for one event (pure): for an order event, a Block Kit layout for the kitchen channel —
// a header naming the transition (and whether it came after closing), where a rescheduled order moved or
// what an update changed, the order's key fields, its notes (those naming an allergy or a diet first,
// marked 🚨, with the organization's highlight words), its item lines — plus a plain `text` fallback for
// notifications; a prep summary, a prep_changed and a catch-up have their own layouts. Every value is
// fitted to Slack's limits, so no order, however large or oddly named, produces a message Slack refuses as
// `invalid_blocks`. Parent e-mail and phone are never printed.

import { isCatchUp } from '../../events/catchUpEvent.js';
import { changedContent, contentChangeText, isFlaggedChange } from '../../events/contentChangeText.js';
import { eventTimeZone, fieldChangeText } from '../../events/fieldChangeText.js';
import { DEFAULT_HIGHLIGHT_WORDS } from '../../events/noteHighlights.js';
import { isPrepChanged, isPrepSummary, type NotifierEvent } from '../../events/notifierEvent.js';
import { type Change, isFieldChange, type OrderEvent, type OrderSummary } from '../../events/orderEvent.js';
import { type OrderNote, orderNotes } from '../../events/orderNotes.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import { paymentMethodLabel } from '../paymentMethodLabel.js';
import { formatCatchUpSlackMessage } from './catchUpSlackMessage.js';
import { formatPrepChangedSlackMessage } from './prepChangedSlackMessage.js';
import { formatPrepSummarySlackMessage } from './prepSummarySlackMessage.js';
import {
  context,
  FLAG,
  itemBlocks,
  type MrkdwnText,
  noteBlocks,
  openingBlocks,
  SLACK_LIMITS,
  type SlackMessage,
  section,
} from './slackBlocks.js';
import { ELLIPSIS, fitMrkdwn, fitPlain, oneLine } from './slackText.js';

/** The words that flag an order event about a day whose prep summary was already sent. */
export const AFTER_CLOSING = '⚠️ after closing';

const SAMPLE_NOTICE =
  '*TEST* sent by `meal-notifier send-test` to try this channel: not a real order, nothing to prepare.';

/** The heading over an order's notes. */
const NOTES_HEADING = '*Notes*';

/**
 * Format from `eventForSubscriber(event, …)`; contact details are left out either way.
 * @param highlightWords the words of the event's organization that flag a note (a prep summary carries
 * its flags already)
 */
export function formatSlackMessage(
  event: NotifierEvent,
  highlightWords: readonly string[] = DEFAULT_HIGHLIGHT_WORDS,
): SlackMessage {
  if (isPrepSummary(event)) return formatPrepSummarySlackMessage(event);
  if (isPrepChanged(event)) return formatPrepChangedSlackMessage(event);
  if (isCatchUp(event)) return formatCatchUpSlackMessage(event);
  const order = event.data.order;
  const notes = orderNotes(order, highlightWords);
  const { title, blocks } = openingBlocks(
    headerText(event, highlightWords),
    isSampleEvent(event) ? SAMPLE_NOTICE : undefined,
  );
  if (event.data.after_closing) {
    blocks.push(context(`${AFTER_CLOSING}: the prep summary was already sent, and this change is not in it`));
  }
  if (event.type === 'order.rescheduled') blocks.push(section(movedText(event)));
  const changed = changedText(event, highlightWords);
  if (changed) blocks.push(section(changed));
  blocks.push(
    { type: 'section', fields: orderFields(order) },
    // Before the items: what a kitchen must not miss comes before what it cooks.
    ...noteBlocks(notes.map(noteLine), NOTES_HEADING),
    ...itemBlocks(order.items, itemsHeading(order), order.items_omitted),
  );
  const small = contextText(event);
  if (small) blocks.push(context(small));
  return { text: fallbackText(title, order, notes), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}

function noteLine({ item, note, flagged }: OrderNote): { label: string; note: string; flagged: boolean } {
  return { label: item === undefined ? 'Order' : item.name, note, flagged };
}

/**
 * "🆕 New order R-1042", "❌ Canceled R-1042", "📅 Rescheduled R-1042", "🔄 R-1042 is now pending",
 * "✏️ Changed R-1042 · items, 🚨 notes", …, after "⚠️ after closing · " when the day's prep summary was
 * already sent; within 150 characters.
 */
export function headerText(
  event: OrderEvent,
  highlightWords: readonly string[] = DEFAULT_HIGHLIGHT_WORDS,
): string {
  const { reference, status } = event.data.order;
  const [transition, after] =
    event.type === 'order.updated'
      ? ['✏️ Changed ', updatedWhat(event, highlightWords)]
      : headerParts(event.type, oneLine(status));
  const before = event.data.after_closing ? `${AFTER_CLOSING} · ${transition}` : transition;
  // The reference gives way first, so the transition stays readable whatever the reference holds.
  const room = Math.max(1, SLACK_LIMITS.headerText - before.length - after.length);
  return fitPlain(`${before}${fitPlain(oneLine(reference), room)}${after}`, SLACK_LIMITS.headerText);
}

function headerParts(type: OrderEvent['type'], status: string): [string, string] {
  switch (type) {
    case 'order.created':
      return ['🆕 New order ', ''];
    case 'order.completed':
      return ['✅ Completed ', ''];
    case 'order.canceled':
      return ['❌ Canceled ', ''];
    case 'order.archived':
      return ['📦 Archived ', ''];
    case 'order.status_changed':
      return ['🔄 ', ` is now ${fitPlain(status, 40)}`];
    case 'order.rescheduled':
      return ['📅 Rescheduled ', ''];
    case 'order.updated':
      return ['✏️ Changed ', ''];
  }
}

/** " · items, 🚨 notes": what an update changed, the notes flagged when a new note names an allergy. */
function updatedWhat(event: OrderEvent, highlightWords: readonly string[]): string {
  const what = changedContent(event.data.changes);
  if (what === undefined) return '';
  const flagged = event.data.changes.some((change) => isFlaggedChange(change, highlightWords));
  return ` · ${flagged ? what.replace('notes', `${FLAG} notes`) : what}`;
}

/**
 * What an update changed, in full print above the order: "*Changed*", then "Lasagne: 1 → 2" and "🚨
 * Notes: none → Allergic to eggs", one a line. Undefined for any other event.
 */
function changedText(event: OrderEvent, highlightWords: readonly string[]): string | undefined {
  if (event.type !== 'order.updated') return undefined;
  const lines = event.data.changes.flatMap((change) => {
    const text = contentChangeText(change);
    if (text === undefined) return [];
    const marker = isFlaggedChange(change, highlightWords) ? FLAG : '•';
    return [`${marker} ${fitMrkdwn(oneLine(text), SLACK_LIMITS.noteLine)}`];
  });
  if (lines.length === 0) return undefined;
  const heading = '*Changed*';
  const reserve = `\n_${ELLIPSIS}and ${lines.length} more changes_`.length;
  const kept: string[] = [];
  let length = heading.length;
  for (const line of lines) {
    if (length + 1 + line.length + reserve > SLACK_LIMITS.sectionText) break;
    kept.push(line);
    length += 1 + line.length;
  }
  const hidden = lines.length - kept.length;
  if (hidden > 0) kept.push(`_${ELLIPSIS}and ${counted(hidden, 'more change')}_`);
  return [heading, ...kept].join('\n');
}

/** Where a rescheduled order moved, in full print: a kitchen must see it leave one day or counter. */
function movedText(event: OrderEvent): string {
  // Labels in bold here; the small print under the order keeps them plain.
  const lines = event.data.changes
    .flatMap((change) => describeMove(change, event))
    .map((line) => line.replace(/^([^:]+):/, '*$1:*'));
  return fitMrkdwn(lines.length > 0 ? lines.join('\n') : 'Moved', SLACK_LIMITS.sectionText);
}

function orderFields(order: OrderSummary): MrkdwnText[] {
  const fields: Array<[string, string]> = [
    ['Reference', order.reference],
    ['Establishment', order.establishment.name],
    ['Pickup date', dayLabel(order.pickup_date)],
    ['Customer', customerText(order.customer)],
    ['Total', order.total.formatted],
    ['Payment method', paymentMethodLabel(order.payment_method)],
  ];
  return fields.slice(0, SLACK_LIMITS.fields).map(([label, value]) => {
    const prefix = `*${label}*\n`;
    return {
      type: 'mrkdwn',
      text: prefix + fitMrkdwn(oneLine(value), SLACK_LIMITS.fieldText - prefix.length),
    };
  });
}

function customerText(customer: OrderSummary['customer']): string {
  return customer.class ? `${customer.name} (${customer.class})` : customer.name;
}

function itemsHeading(order: OrderSummary): string {
  return `*Items (${order.items.length + (order.items_omitted ?? 0)})*`;
}

/**
 * The organization and what moved ("Status: pending → canceled · Canceled at 10:20, Sun 29 Nov"), in small
 * print under the order. A rescheduled order's move and an update's changes are already in full print above.
 */
function contextText(event: OrderEvent): string | undefined {
  const changes =
    event.type === 'order.rescheduled'
      ? []
      : event.data.changes.flatMap((change) => describeChange(change, event));
  const parts = [event.data.organization.name, ...changes].map(oneLine).filter((part) => part.length > 0);
  return parts.length > 0 ? fitMrkdwn(parts.join(' · '), SLACK_LIMITS.contextText) : undefined;
}

/**
 * A transition's field in words (fieldChangeText): a status, a time on the organization's clock, a move.
 * A first sighting's status and moves have nothing to compare with, so they are left out.
 */
function describeChange(change: Change, event: OrderEvent): string[] {
  if (!isFieldChange(change)) return [];
  const stamp = change.field === 'canceled_at' || change.field === 'completed_at';
  if (!stamp && (change.from === null || change.to === null)) return [];
  // A uuid means nothing in a channel.
  const text = fieldChangeText(change, event.data.order, eventTimeZone(event), () => 'another establishment');
  return text === undefined ? [] : [text];
}

/** "Pickup date: Tue 24 Nov → Wed 25 Nov", "Establishment: Side Counter → Main Canteen". */
function describeMove(change: Change, event: OrderEvent): string[] {
  if (!isFieldChange(change) || (change.field !== 'pickup_date' && change.field !== 'establishment'))
    return [];
  return describeChange(change, event);
}

function fallbackText(title: string, order: OrderSummary, notes: readonly OrderNote[]): string {
  const count = order.items.length + (order.items_omitted ?? 0);
  const parts = [
    order.establishment.name,
    `pickup ${dayLabel(order.pickup_date)}`,
    customerText(order.customer),
    order.total.formatted,
    counted(count, 'item'),
    // A notification preview is often all that is read: an allergy must show in it.
    ...(notes.some((note) => note.flagged) ? [`${FLAG} allergy or diet note`] : []),
  ].map(oneLine);
  return fitMrkdwn(`${title} — ${parts.join(', ')}`, SLACK_LIMITS.fallbackText);
}
