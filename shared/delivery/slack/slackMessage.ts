// The Slack message for one event (pure): for an order event, a Block Kit layout for the kitchen channel —
// a header naming the transition (and whether it came after closing), where a rescheduled order moved, the
// order's key fields, its item lines — plus a plain `text` fallback for notifications; a prep summary has
// its own layout (prepSummarySlackMessage.ts), and so has a catch-up (catchUpSlackMessage.ts). Every
// value is fitted to Slack's limits, so no order, however large or oddly named, produces a message Slack
// refuses as `invalid_blocks`. Parent e-mail and phone are never printed.

import { isCatchUp } from '../../events/catchUpEvent.js';
import { contentChangeText } from '../../events/contentChangeText.js';
import { isPrepSummary, type NotifierEvent } from '../../events/notifierEvent.js';
import {
  type Change,
  type FieldChange,
  isFieldChange,
  type OrderEvent,
  type OrderSummary,
} from '../../events/orderEvent.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import { paymentMethodLabel } from '../paymentMethodLabel.js';
import { formatCatchUpSlackMessage } from './catchUpSlackMessage.js';
import { formatPrepSummarySlackMessage } from './prepSummarySlackMessage.js';
import {
  context,
  itemBlocks,
  type MrkdwnText,
  openingBlocks,
  SLACK_LIMITS,
  type SlackMessage,
  section,
} from './slackBlocks.js';
import { fitMrkdwn, fitPlain, oneLine } from './slackText.js';

/** The words that flag an order event about a day whose prep summary was already sent. */
export const AFTER_CLOSING = '⚠️ after closing';

const SAMPLE_NOTICE =
  '*TEST* sent by `meal-notifier send-test` to try this channel: not a real order, nothing to prepare.';

/** Format from `eventForSubscriber(event, …)`; contact details are left out either way. */
export function formatSlackMessage(event: NotifierEvent): SlackMessage {
  if (isPrepSummary(event)) return formatPrepSummarySlackMessage(event);
  if (isCatchUp(event)) return formatCatchUpSlackMessage(event);
  const order = event.data.order;
  const { title, blocks } = openingBlocks(
    headerText(event),
    isSampleEvent(event) ? SAMPLE_NOTICE : undefined,
  );
  if (event.data.after_closing) {
    blocks.push(context(`${AFTER_CLOSING}: the prep summary was already sent, and this change is not in it`));
  }
  if (event.type === 'order.rescheduled') blocks.push(section(movedText(event)));
  blocks.push(
    { type: 'section', fields: orderFields(order) },
    ...itemBlocks(order.items, itemsHeading(order), order.items_omitted),
  );
  const small = contextText(event);
  if (small) blocks.push(context(small));
  return { text: fallbackText(title, order), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}

/**
 * "🆕 New order R-1042", "❌ Canceled R-1042", "📅 Rescheduled R-1042", "🔄 R-1042 is now pending", …,
 * after "⚠️ after closing · " when the day's prep summary was already sent; within 150 characters.
 */
export function headerText(event: OrderEvent): string {
  const { reference, status } = event.data.order;
  const [transition, after] = headerParts(event.type, oneLine(status));
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

/** Where a rescheduled order moved, in full print: a kitchen must see it leave one day or counter. */
function movedText(event: OrderEvent): string {
  // Labels in bold here; the small print under the order keeps them plain.
  const lines = event.data.changes
    .flatMap((change) => describeMove(change, event.data.order))
    .map((line) => line.replace(/^([^:]+):/, '*$1:*'));
  return fitMrkdwn(lines.length > 0 ? lines.join('\n') : 'Moved', SLACK_LIMITS.sectionText);
}

function orderFields(order: OrderSummary): MrkdwnText[] {
  const fields: Array<[string, string]> = [
    ['Reference', order.reference],
    ['Establishment', order.establishment.name],
    ['Pickup date', order.pickup_date],
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
 * The organization and what moved ("Status: pending → canceled"), in small print under the order. A
 * rescheduled order's move is already in full print above.
 */
function contextText(event: OrderEvent): string | undefined {
  const order = event.data.order;
  const changes =
    event.type === 'order.rescheduled'
      ? []
      : event.data.changes.flatMap((change) => {
          const content = contentChangeText(change);
          if (content !== undefined) return [content];
          if (!isFieldChange(change)) return [];
          return change.field === 'status' ? describeStatus(change) : describeMove(change, order);
        });
  const parts = [event.data.organization.name, ...changes].map(oneLine).filter((part) => part.length > 0);
  return parts.length > 0 ? fitMrkdwn(parts.join(' · '), SLACK_LIMITS.contextText) : undefined;
}

// A first sighting has nothing to compare with, and the timestamps only restate the status.
function describeStatus(change: FieldChange): string[] {
  return change.from === null || change.to === null ? [] : [`Status: ${change.from} → ${change.to}`];
}

/** "Pickup date: Tue 24 Nov → Wed 25 Nov", "Establishment: Side Counter → Main Canteen". */
function describeMove(change: Change, order: OrderSummary): string[] {
  if (!isFieldChange(change)) return [];
  if (change.from === null || change.to === null) return [];
  if (change.field === 'pickup_date')
    return [`Pickup date: ${dayLabel(change.from)} → ${dayLabel(change.to)}`];
  if (change.field !== 'establishment') return [];
  // Establishments move by uuid, which means nothing in a channel: names where the event knows them.
  const from = change.from_name ?? 'another establishment';
  const to =
    change.to_name ?? (change.to === order.establishment.uuid ? order.establishment.name : 'another one');
  return [`Establishment: ${oneLine(from)} → ${oneLine(to)}`];
}

function fallbackText(title: string, order: OrderSummary): string {
  const count = order.items.length + (order.items_omitted ?? 0);
  const parts = [
    order.establishment.name,
    `pickup ${order.pickup_date}`,
    customerText(order.customer),
    order.total.formatted,
    counted(count, 'item'),
  ].map(oneLine);
  return fitMrkdwn(`${title} — ${parts.join(', ')}`, SLACK_LIMITS.fallbackText);
}
