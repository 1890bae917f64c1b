// The Slack message for one order event (pure): a Block Kit layout for the kitchen channel — a header
// naming the transition, the order's key fields, its item lines — plus a plain `text` fallback for
// notifications. Every value is fitted to Slack's limits, so no order, however large or oddly named,
// produces a message Slack refuses as `invalid_blocks`. Parent e-mail and phone are never printed.
import type { Change, OrderEvent, OrderSummary } from '../../events/orderEvent.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { counted } from '../../text/counted.js';
import { ELLIPSIS, fitMrkdwn, fitPlain, oneLine } from './slackText.js';

/** Slack's Block Kit limits, and the ones this product sets itself to keep a message readable. */
export const SLACK_LIMITS = {
  blocks: 50,
  headerText: 150,
  sectionText: 3_000,
  fields: 10,
  fieldText: 2_000,
  contextText: 2_000,
  /** Slack accepts far more; the fallback is a notification preview, not the message. */
  fallbackText: 1_000,
  /** One item line; a longer item name is cut. */
  itemLine: 300,
  /** Item lines shown before "…and N more items": enough for any real order, short enough to read. */
  itemLines: 100,
  /** Sections the item lines are packed into (each up to `sectionText`). */
  itemSections: 5,
} as const;

export interface PlainText {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

export interface MrkdwnText {
  type: 'mrkdwn';
  text: string;
}

export interface HeaderBlock {
  type: 'header';
  text: PlainText;
}

export type SectionBlock =
  | { type: 'section'; text: MrkdwnText; fields?: never }
  | { type: 'section'; fields: MrkdwnText[]; text?: never };

export interface ContextBlock {
  type: 'context';
  elements: MrkdwnText[];
}

export type SlackBlock = HeaderBlock | SectionBlock | ContextBlock;

/** The JSON body an incoming webhook takes. */
export interface SlackMessage {
  /** Fallback for notifications and clients that cannot show blocks; mrkdwn-escaped. */
  text: string;
  blocks: SlackBlock[];
}

const PAYMENT_LABELS: Record<string, string> = { cash: 'Cash', card: 'Card', credit: 'Credit' };

/** In front of a sample's header and fallback, so neither a channel nor a notification passes for an order. */
export const SAMPLE_HEADER_PREFIX = '🧪 TEST · ';
const SAMPLE_NOTICE =
  '*TEST* sent by `meal-notifier send-test` to try this channel: not a real order, nothing to prepare.';

/** Format from `eventForSubscriber(event, …)`; contact details are left out either way. */
export function formatSlackMessage(event: OrderEvent): SlackMessage {
  const order = event.data.order;
  const sample = isSampleEvent(event);
  const title = sample
    ? fitPlain(`${SAMPLE_HEADER_PREFIX}${headerText(event)}`, SLACK_LIMITS.headerText)
    : headerText(event);
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: title, emoji: true } },
    ...(sample ? [sampleNotice()] : []),
    { type: 'section', fields: orderFields(order) },
    ...itemBlocks(order.items),
  ];
  const context = contextText(event);
  if (context) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: context }] });
  return { text: fallbackText(title, order), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}

/** "🆕 New order R-1042", "❌ Canceled R-1042", "🔄 R-1042 is now pending", … within 150 characters. */
export function headerText(event: OrderEvent): string {
  const { reference, status } = event.data.order;
  const [before, after] = headerParts(event.type, oneLine(status));
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
  }
}

function orderFields(order: OrderSummary): MrkdwnText[] {
  const fields: Array<[string, string]> = [
    ['Reference', order.reference],
    ['Establishment', order.establishment.name],
    ['Pickup date', order.pickup_date],
    ['Customer', customerText(order.customer)],
    ['Total', order.total.formatted],
    ['Payment method', PAYMENT_LABELS[order.payment_method] ?? order.payment_method],
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

/** "2 × Orange juice" lines packed into sections, then "…and N more items" when they do not all fit. */
function itemBlocks(items: OrderSummary['items']): SectionBlock[] {
  const heading = `*Items (${items.length})*`;
  if (items.length === 0) return [section(`${heading}\nNo items`)];
  const sections: string[] = [heading];
  let shown = 0;
  for (const item of items.slice(0, SLACK_LIMITS.itemLines)) {
    const line = fitMrkdwn(`${item.quantity} × ${oneLine(item.name)}`, SLACK_LIMITS.itemLine);
    const last = sections.length - 1;
    const current = sections[last] ?? '';
    if (current.length + 1 + line.length <= SLACK_LIMITS.sectionText) {
      sections[last] = `${current}\n${line}`;
    } else if (sections.length < SLACK_LIMITS.itemSections) {
      sections.push(line);
    } else {
      break;
    }
    shown += 1;
  }
  const blocks = sections.map(section);
  const hidden = items.length - shown;
  if (hidden > 0) blocks.push(section(`_${ELLIPSIS}and ${counted(hidden, 'more item')}_`));
  return blocks;
}

function sampleNotice(): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: SAMPLE_NOTICE }] };
}

function section(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** The organization and what moved ("Status: pending → canceled"), in small print under the order. */
function contextText(event: OrderEvent): string | undefined {
  const parts = [event.data.organization.name, ...event.data.changes.flatMap(describeChange)]
    .map(oneLine)
    .filter((part) => part.length > 0);
  return parts.length > 0 ? fitMrkdwn(parts.join(' · '), SLACK_LIMITS.contextText) : undefined;
}

const CHANGE_LABELS: Partial<Record<Change['field'], string>> = {
  status: 'Status',
  pickup_date: 'Pickup date',
};

function describeChange(change: Change): string[] {
  // A first sighting has nothing to compare with, and the timestamps only restate the status.
  if (change.from === null || change.to === null) return [];
  // Establishments move by uuid, which means nothing in a channel; the new name is in the fields.
  if (change.field === 'establishment') return ['Moved from another establishment'];
  const label = CHANGE_LABELS[change.field];
  return label ? [`${label}: ${change.from} → ${change.to}`] : [];
}

function fallbackText(title: string, order: OrderSummary): string {
  const count = order.items.length;
  const parts = [
    order.establishment.name,
    `pickup ${order.pickup_date}`,
    customerText(order.customer),
    order.total.formatted,
    counted(count, 'item'),
  ].map(oneLine);
  return fitMrkdwn(`${title} — ${parts.join(', ')}`, SLACK_LIMITS.fallbackText);
}
