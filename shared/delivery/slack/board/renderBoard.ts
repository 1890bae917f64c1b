// The board's message (pure): the establishment and day, the orders to cook and how many were canceled,
// the item totals, the flagged notes (🚨, with each order's reference) then the others, and the closing
// time. From closing on it is the prep list, with each item's change since closing ("Lasagne 42 → 40").
// Every value is escaped and fitted to Block Kit's limits by the shared builders.
import { counted } from '../../../text/counted.js';
import { dayLabel } from '../../../time/dayLabel.js';
import {
  context,
  header,
  itemBlocks,
  noteBlocks,
  SAMPLE_HEADER_PREFIX,
  SLACK_LIMITS,
  type SlackBlock,
  type SlackMessage,
  section,
} from '../slackBlocks.js';
import { ELLIPSIS, fitMrkdwn, fitPlain, oneLine } from '../slackText.js';
import type { AtClosing } from './boardMessages.js';
import { type BoardTotals, itemDeltas } from './boardTotals.js';

export interface BoardView {
  organizationName: string;
  establishmentName: string;
  day: string;
  atClosing: AtClosing | null;
  /** A sample (send-test): marked as a test in the header. */
  test?: boolean;
}

/** The most item deltas listed before "…and N more". */
const MAX_DELTA_LINES = 40;

export function renderBoard(view: BoardView, totals: BoardTotals): SlackMessage {
  const place = `${oneLine(view.establishmentName)} · ${dayLabel(view.day)}`;
  const closed = view.atClosing;
  const title = fitPlain(
    `${view.test ? SAMPLE_HEADER_PREFIX : ''}${closed ? `📋 Prep list · ${place}` : `🍽️ ${place}`}`,
    SLACK_LIMITS.headerText,
  );
  const blocks: SlackBlock[] = [header(title)];
  const atClosingOrders = closed && closed.orders !== totals.orders ? ` (${closed.orders} at closing)` : '';
  blocks.push(
    section(`*${counted(totals.orders, 'order')} to cook*${atClosingOrders} · ${totals.canceled} canceled`),
  );
  if (closed) {
    const deltas = itemDeltas(closed, totals);
    if (deltas.length > 0) blocks.push(section(deltaText(deltas)));
  }
  blocks.push(...itemBlocks(totals.items, '*Item totals*'));
  blocks.push(...noteBlocks(totals.notes, '*Notes*'));
  blocks.push(
    context(
      fitMrkdwn(
        closed
          ? `${oneLine(view.organizationName)} · closed at ${clockOf(closed.closedAt)}: this is the prep list; changes after closing are also posted to the channel`
          : `${oneLine(view.organizationName)} · each order is a reply in the thread · at closing this becomes the prep list`,
        SLACK_LIMITS.contextText,
      ),
    ),
  );
  const text = fitMrkdwn(
    `${title} — ${counted(totals.orders, 'order')} to cook, ${totals.canceled} canceled${
      totals.notes.some((note) => note.flagged) ? ', 🚨 allergy or diet notes' : ''
    }`,
    SLACK_LIMITS.fallbackText,
  );
  return { text, blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}

/** "*Changed since closing*" and "Lasagne 42 → 40" lines, within one section. */
export function deltaText(deltas: readonly { name: string; from: number; to: number }[]): string {
  const lines = deltas
    .slice(0, MAX_DELTA_LINES)
    .map(({ name, from, to }) => `• ${fitMrkdwn(oneLine(name), SLACK_LIMITS.itemLine)} ${from} → ${to}`);
  const kept: string[] = ['*Changed since closing*'];
  let length = kept[0]?.length ?? 0;
  for (const line of lines) {
    if (length + line.length + 40 > SLACK_LIMITS.sectionText) break;
    kept.push(line);
    length += line.length + 1;
  }
  const hidden = deltas.length - (kept.length - 1);
  if (hidden > 0) kept.push(`_${ELLIPSIS}and ${counted(hidden, 'more item')}_`);
  return kept.join('\n');
}

/** "11:00" from "2026-12-02T11:00:00+00:00": the closing time as the establishment's clock reads it. */
function clockOf(iso: string): string {
  const match = /T(\d{2}:\d{2})/.exec(iso);
  return match?.[1] ?? iso;
}
