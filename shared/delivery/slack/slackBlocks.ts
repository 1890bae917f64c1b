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
  /** One note's line, its label included; a longer note is cut. */
  noteLine: 600,
  /** A note's label (the item, or the order's reference and class); a longer one is cut. */
  noteLabel: 120,
  /** Sections the notes are packed into (each up to `sectionText`), before "…and N more notes". */
  noteSections: 3,
} as const;

/** In front of a note that names an allergy or a diet (noteHighlights.ts). */
export const FLAG = '🚨';

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
  const lines = items
    .slice(0, SLACK_LIMITS.itemLines)
    .map((item) => fitMrkdwn(`${item.quantity} × ${oneLine(item.name)}`, SLACK_LIMITS.itemLine));
  const { sections, shown } = packLines(heading, lines, SLACK_LIMITS.itemSections);
  const blocks = sections.map(section);
  const hidden = items.length - shown + omitted;
  if (hidden > 0) blocks.push(section(`_${ELLIPSIS}and ${counted(hidden, 'more item')}_`));
  return blocks;
}

export interface NoteLine {
  /** What the note is on: "Order", an item's name, a reference and class. As typed: escaped and cut here. */
  label: string;
  /** As typed: on one line, escaped and cut here. */
  note: string;
  flagged: boolean;
}

/**
 * "🚨 *Lasagne:* no eggs" (flagged) and "• *Order:* …" lines under `heading` (mrkdwn), in the order given,
 * packed into sections, then "…and N more notes" when they do not all fit, counting `omitted` too. None
 * when there are no notes.
 */
export function noteBlocks(notes: readonly NoteLine[], heading: string, omitted = 0): SectionBlock[] {
  if (notes.length === 0 && omitted === 0) return [];
  const lines = notes.map(({ label, note, flagged }) => {
    // The label is cut on its own first, so a long note never cuts off its closing "*".
    const marked = `${flagged ? FLAG : '•'} *${fitMrkdwn(oneLine(label), SLACK_LIMITS.noteLabel)}:* `;
    return marked + fitMrkdwn(oneLine(note), Math.max(1, SLACK_LIMITS.noteLine - marked.length));
  });
  const { sections, shown } = packLines(heading, lines, SLACK_LIMITS.noteSections);
  const blocks = sections.map(section);
  const hidden = notes.length - shown + omitted;
  if (hidden > 0) blocks.push(section(`_${ELLIPSIS}and ${counted(hidden, 'more note')}_`));
  return blocks;
}

/** `lines` after `heading`, newline-separated, in as many sections (up to `maxSections`) as they need. */
function packLines(
  heading: string,
  lines: readonly string[],
  maxSections: number,
): { sections: string[]; shown: number } {
  const sections: string[] = [heading];
  let shown = 0;
  for (const line of lines) {
    const last = sections.length - 1;
    const current = sections[last] ?? '';
    if (current.length + 1 + line.length <= SLACK_LIMITS.sectionText) {
      sections[last] = `${current}\n${line}`;
    } else if (sections.length < maxSections) {
      sections.push(line);
    } else {
      break;
    }
    shown += 1;
  }
  return { sections, shown };
}
