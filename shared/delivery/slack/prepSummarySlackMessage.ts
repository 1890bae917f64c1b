// The Slack message for a prep summary (pure): what one establishment must prepare for one pickup date,
// for its kitchen channel. A header with the count and the day, a warning when the figures are not the
// whole truth, the items by quantity, the day's notes under them (flagged ones first, marked 🚨, as the
// summary flagged them), the orders per class and the day's cancellations; fitted to Slack's limits
// however long the menu.
import { summaryNoteLabel } from '../../events/orderNotes.js';
import type { PrepSummaryEvent, PrepSummaryNote } from '../../events/prepSummaryEvent.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { dayLabel } from '../../time/dayLabel.js';
import {
  context,
  FLAG,
  itemBlocks,
  type NoteLine,
  noteBlocks,
  openingBlocks,
  SLACK_LIMITS,
  type SlackMessage,
  section,
} from './slackBlocks.js';
import { ELLIPSIS, escapeMrkdwn, fitMrkdwn, fitPlain, oneLine } from './slackText.js';

const SAMPLE_NOTICE =
  '*TEST* sent by `meal-notifier send-test` to try this channel: not a real summary, nothing to prepare.';

export function formatPrepSummarySlackMessage(event: PrepSummaryEvent): SlackMessage {
  const summary = event.data;
  const { title, blocks } = openingBlocks(
    prepSummaryHeaderText(event),
    isSampleEvent(event) ? SAMPLE_NOTICE : undefined,
  );
  if (!summary.complete) {
    const reason = oneLine(summary.incomplete_reason ?? 'the figures could not all be had');
    blocks.push(
      section(fitMrkdwn(`⚠️ Incomplete: ${reason}. Some orders may be missing.`, SLACK_LIMITS.sectionText)),
    );
  }
  const units = summary.items.reduce((sum, item) => sum + item.quantity, 0);
  const heading =
    summary.items.length === 0
      ? '*To prepare*'
      : `*To prepare* (${plural(summary.items.length, 'item')}, ${units} in all)`;
  blocks.push(...itemBlocks(itemLines(summary.items), heading));
  blocks.push(...noteBlocks((summary.notes ?? []).map(noteLine), '*Notes*', summary.notes_omitted));
  if (summary.classes.length > 0) blocks.push(section(classesText(summary.classes)));
  blocks.push(section(`*Canceled before closing:* ${summary.canceled_before_closing}`));
  blocks.push(context(fitMrkdwn(footer(event), SLACK_LIMITS.contextText)));
  return { text: fallbackText(title, event), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}

/** "🍽 Main Canteen — 42 orders for Tue 24 Nov", within 150 characters: the name gives way first. */
export function prepSummaryHeaderText(event: PrepSummaryEvent): string {
  const { establishment, orders, pickup_date, complete } = event.data;
  const before = '🍽 ';
  const after = ` — ${plural(orders, 'order')} for ${dayLabel(pickup_date)}${complete ? '' : ' (incomplete)'}`;
  const room = Math.max(1, SLACK_LIMITS.headerText - before.length - after.length);
  return fitPlain(`${before}${fitPlain(oneLine(establishment.name), room)}${after}`, SLACK_LIMITS.headerText);
}

/** Item names as printed; two items of one name (different skus) each get their sku, to tell them apart. */
function itemLines(items: PrepSummaryEvent['data']['items']): { quantity: number; name: string }[] {
  const seen = new Map<string, number>();
  for (const item of items) seen.set(item.name, (seen.get(item.name) ?? 0) + 1);
  return items.map((item) => ({
    quantity: item.quantity,
    name: (seen.get(item.name) ?? 0) > 1 && item.sku !== '' ? `${item.name} (${item.sku})` : item.name,
  }));
}

function noteLine(note: PrepSummaryNote): NoteLine {
  return { label: summaryNoteLabel(note), note: note.note, flagged: note.flagged };
}

/** "*Orders by class*\n3B: 12 · 4A: 8 · No class: 2", then "…and N more classes" when they do not all fit. */
function classesText(classes: PrepSummaryEvent['data']['classes']): string {
  const heading = '*Orders by class*';
  // Room for the longest "…and N more classes" there could be.
  const reserve = ` · _${ELLIPSIS}and ${classes.length} more classes_`.length;
  const parts: string[] = [];
  let length = heading.length + 1;
  for (const entry of classes) {
    const name = entry.class === null || entry.class.trim() === '' ? 'No class' : oneLine(entry.class);
    const part = `${fitMrkdwn(name, 100)}: ${entry.orders}`;
    const added = (parts.length > 0 ? 3 : 0) + part.length;
    if (length + added + reserve > SLACK_LIMITS.sectionText) break;
    parts.push(part);
    length += added;
  }
  const hidden = classes.length - parts.length;
  if (hidden > 0) parts.push(`_${ELLIPSIS}and ${plural(hidden, 'more class', 'more classes')}_`);
  return `${heading}\n${parts.join(' · ')}`;
}

/** The organization, the date in full and when the establishment closed (its own local time). */
function footer(event: PrepSummaryEvent): string {
  const { organization, pickup_date, closed_at } = event.data;
  const local = /T(\d{2}:\d{2})/.exec(closed_at)?.[1];
  const closed = local === undefined ? closed_at : `closed at ${local}`;
  return [organization.name, pickup_date, closed].map((part) => escapeMrkdwn(oneLine(part))).join(' · ');
}

function fallbackText(title: string, event: PrepSummaryEvent): string {
  const { items, canceled_before_closing, notes = [] } = event.data;
  const flagged = notes.filter((note) => note.flagged).length;
  const parts = [
    plural(items.length, 'item'),
    `${canceled_before_closing} canceled before closing`,
    ...(flagged > 0 ? [`${FLAG} ${plural(flagged, 'allergy or diet note', 'allergy or diet notes')}`] : []),
  ];
  return fitMrkdwn(`${title}: ${parts.join(', ')}`, SLACK_LIMITS.fallbackText);
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
