// Block Kit as this product writes it: the blocks it uses, Slack's limits (and the ones it sets itself),
// and the pieces order messages and prep summaries share, each fitted to those limits.

import { counted } from '../../text/counted.js';
import { ELLIPSIS, fitMrkdwn, fitPlain, oneLine } from './slackText.js';

/** Slack's Block Kit limits, and the ones this product sets itself to keep a message readable. */
/** In front of a sample's header and fallback, so neither a channel nor a notification passes for a real one. */
export const SAMPLE_HEADER_PREFIX = '🧪 TEST · ';

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

export function header(text: string): HeaderBlock {
  return { type: 'header', text: { type: 'plain_text', text, emoji: true } };
}

export function section(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** One line of small print, already mrkdwn. */
export function context(text: string): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

/**
 * The header a message opens with, and for a sample its notice below: a sample's header starts with
 * SAMPLE_HEADER_PREFIX, fitted again to the limit. `title` is the header as shown, for the fallback text.
 */
export function openingBlocks(
  headerText: string,
  sampleNotice: string | undefined,
): { title: string; blocks: SlackBlock[] } {
  const title =
    sampleNotice === undefined
      ? headerText
      : fitPlain(`${SAMPLE_HEADER_PREFIX}${headerText}`, SLACK_LIMITS.headerText);
  const blocks: SlackBlock[] = [header(title)];
  if (sampleNotice !== undefined) blocks.push(context(sampleNotice));
  return { title, blocks };
}

export interface ItemLine {
  quantity: number;
  /** As typed by people: escaped and cut here. */
  name: string;
}

/**
 * "2 × Orange juice" lines under `heading` (mrkdwn), packed into sections, then "…and N more items" when
 * they do not all fit, counting the `omitted` lines the event itself left out.
 */
export function itemBlocks(items: readonly ItemLine[], heading: string, omitted = 0): SectionBlock[] {
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
  const hidden = items.length - shown + omitted;
  if (hidden > 0) blocks.push(section(`_${ELLIPSIS}and ${counted(hidden, 'more item')}_`));
  return blocks;
}
