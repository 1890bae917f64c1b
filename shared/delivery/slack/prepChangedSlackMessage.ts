// The Slack message for a prep_changed (pure): what changed for one establishment's pickup date since its
// prep summary was sent, for its kitchen channel. A header naming the kitchen, the day and the summary it
// amends, the item deltas ("Lasagne: 42 → 40"), then the orders behind them by reference (what each did is
// its own order message's to say: prepChangeText.ts); fitted to Slack's limits however many there are,
// and every value typed by people escaped for mrkdwn.
import type { PrepChangedEvent } from '../../events/prepChangedEvent.js';
import {
  itemDeltaText,
  itemNames,
  ordersBehind,
  prepChangedLine,
  summaryClock,
} from '../../events/prepChangeText.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import {
  context,
  openingBlocks,
  type SectionBlock,
  SLACK_LIMITS,
  type SlackMessage,
  section,
} from './slackBlocks.js';
import { ELLIPSIS, escapeMrkdwn, fitMrkdwn, fitPlain, oneLine } from './slackText.js';

const SAMPLE_NOTICE =
  '*TEST* sent by `meal-notifier send-test` to try this channel: not a real change, nothing to prepare.';

export function formatPrepChangedSlackMessage(event: PrepChangedEvent): SlackMessage {
  const { items } = event.data;
  const { title, blocks } = openingBlocks(
    prepChangedHeaderText(event),
    isSampleEvent(event) ? SAMPLE_NOTICE : undefined,
  );
  const names = itemNames(items);
  blocks.push(
    ...lineBlocks(
      items.map((item, index) => {
        const name = names[index] ?? item.name;
        return { name, tail: itemDeltaText(item, '') };
      }),
      '*Quantities*',
      event.data.items_omitted ?? 0,
      'item',
      'No quantity changed: only notes',
    ),
    ...lineBlocks(
      ordersBehind(event).map((reference) => ({ name: reference, tail: '' })),
      '*Orders behind them*',
      event.data.orders_omitted ?? 0,
      'order',
    ),
    context(fitMrkdwn(footer(event), SLACK_LIMITS.contextText)),
  );
  return { text: fallbackText(title, event), blocks: blocks.slice(0, SLACK_LIMITS.blocks) };
}

/**
 * "✏️ Main Canteen, Thu 26 Nov: changes since the 11:00 summary", within 150 characters: the name gives
 * way first.
 */
export function prepChangedHeaderText(event: PrepChangedEvent): string {
  const { establishment, pickup_date, summary_closed_at } = event.data;
  const before = '✏️ ';
  const after = `, ${dayLabel(pickup_date)}: changes since the ${summaryClock(summary_closed_at)} summary`;
  const room = Math.max(1, SLACK_LIMITS.headerText - before.length - after.length);
  return fitPlain(`${before}${fitPlain(plain(establishment.name), room)}${after}`, SLACK_LIMITS.headerText);
}

/** Control characters as spaces, then one line: a value must not break the layout around it. */
function plain(text: string): string {
  return oneLine(text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' '));
}

/** A line: a name typed by people, cut if it must be, then what the notifier says of it, always shown. */
interface Line {
  name: string;
  tail: string;
}

/**
 * `lines` (escaped and cut here) under `heading`, packed into sections, then "…and N more items" when they
 * do not all fit, counting the `omitted` ones the event itself left out.
 */
function lineBlocks(
  lines: readonly Line[],
  heading: string,
  omitted: number,
  noun: string,
  none?: string,
): SectionBlock[] {
  if (lines.length === 0 && omitted === 0) return none === undefined ? [] : [section(`${heading}\n${none}`)];
  const sections: string[] = [heading];
  let shown = 0;
  for (const { name, tail } of lines.slice(0, SLACK_LIMITS.itemLines)) {
    // The name gives way, so that "42 → 40" or "canceled" is never cut off.
    const said = escapeMrkdwn(plain(tail));
    const line = `${fitMrkdwn(plain(name), Math.max(1, SLACK_LIMITS.itemLine - said.length))}${said}`;
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
  const hidden = lines.length - shown + omitted;
  if (hidden > 0) blocks.push(section(`_${ELLIPSIS}and ${counted(hidden, `more ${noun}`)}_`));
  return blocks;
}

/** The organization, the date in full and the summary amended (by its closing time). */
function footer(event: PrepChangedEvent): string {
  const { organization, pickup_date, summary_closed_at } = event.data;
  return [organization.name, pickup_date, `summary of ${summaryClock(summary_closed_at)}`]
    .map((part) => escapeMrkdwn(plain(part)))
    .join(' · ');
}

function fallbackText(title: string, event: PrepChangedEvent): string {
  return fitMrkdwn(`${title}: ${plain(prepChangedLine(event))}`, SLACK_LIMITS.fallbackText);
}
