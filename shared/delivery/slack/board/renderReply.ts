// An order's reply in its board's thread (pure): the Slack message of its latest event (header, fields,
// notes first, items, as slackMessage.ts builds it), with a canceled order's items struck through and, on
// the board it left, where a rescheduled order went ("moved to Tue 1 Dec, Café Bar"). Also the short reply
// broadcast to the channel for a change after closing, and the one line after an outage.
import type { OrderEvent } from '../../../events/orderEvent.js';
import { counted } from '../../../text/counted.js';
import { dayLabel } from '../../../time/dayLabel.js';
import { humanDuration } from '../../../time/humanDuration.js';
import {
  context,
  header,
  SLACK_LIMITS,
  type SlackBlock,
  type SlackMessage,
  section,
} from '../slackBlocks.js';
import { formatSlackMessage, headerText } from '../slackMessage.js';
import { escapeMrkdwn, fitMrkdwn, fitPlain, oneLine } from '../slackText.js';
import type { ItemDelta } from './boardTotals.js';
import { deltaText } from './renderBoard.js';

export function renderReply(
  event: OrderEvent,
  highlightWords: readonly string[],
  options: { canceled: boolean; movedTo?: string },
): SlackMessage {
  const message = formatSlackMessage(event, highlightWords);
  let blocks = message.blocks;
  if (options.canceled) blocks = blocks.map(strikeItems);
  if (options.movedTo !== undefined) {
    const where = escapeMrkdwn(oneLine(options.movedTo));
    const [, ...rest] = blocks;
    blocks = [
      header(fitPlain(`➡️ Moved ${oneLine(event.data.order.reference)}`, SLACK_LIMITS.headerText)),
      section(`*Moved to ${where}*: no longer cooked for this day here; see that day's board`),
      ...rest,
    ].slice(0, SLACK_LIMITS.blocks);
    return {
      text: fitMrkdwn(
        `➡️ ${event.data.order.reference} moved to ${options.movedTo}`,
        SLACK_LIMITS.fallbackText,
      ),
      blocks,
    };
  }
  return { text: message.text, blocks };
}

/** Item lines of a canceled order struck through ("~2 × Lasagne~"): shown, but not to cook. */
function strikeItems(block: SlackBlock): SlackBlock {
  if (block.type !== 'section' || block.text === undefined || !block.text.text.startsWith('*Items'))
    return block;
  const [heading, ...lines] = block.text.text.split('\n');
  return section([heading, ...lines.map((line) => (line.trim() === '' ? line : `~${line}~`))].join('\n'));
}

/**
 * The reply broadcast to the channel for a change after closing that changes what is cooked: what
 * happened to which order, and the item totals it moved ("Lasagne 42 → 40").
 */
export function renderBroadcast(
  event: OrderEvent,
  highlightWords: readonly string[],
  place: { establishmentName: string; day: string },
  deltas: readonly ItemDelta[],
): SlackMessage {
  const what = headerText(event, highlightWords);
  const blocks: SlackBlock[] = [
    section(fitMrkdwn(`*⚠️ After closing:* ${oneLine(what)}`, SLACK_LIMITS.sectionText)),
  ];
  if (deltas.length > 0) blocks.push(section(deltaText(deltas)));
  blocks.push(
    context(
      fitMrkdwn(
        `${oneLine(place.establishmentName)} · ${dayLabel(place.day)}: the board above is the prep list as it stands`,
        SLACK_LIMITS.contextText,
      ),
    ),
  );
  const summary = deltas.map(({ name, from, to }) => `${oneLine(name)} ${from} → ${to}`).join(', ');
  return {
    text: fitMrkdwn(`⚠️ After closing: ${what}${summary ? ` — ${summary}` : ''}`, SLACK_LIMITS.fallbackText),
    blocks,
  };
}

/** "⏪ Back after 2 h: 42 changes, 3 after closing": the one line in the channel after an outage. */
export function renderBackAfter(outageMs: number, changes: number, afterClosing: number): SlackMessage {
  const line = `⏪ Back after ${humanDuration(outageMs)}: ${counted(changes, 'change')}${
    afterClosing > 0 ? `, ${afterClosing} after closing` : ''
  }`;
  return {
    text: line,
    blocks: [section(line), context('The boards and their replies are brought up to date by editing them.')],
  };
}
