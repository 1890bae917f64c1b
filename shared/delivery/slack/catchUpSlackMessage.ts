// The Slack message for a catch-up (pure): one post instead of a backlog of stale ones. A header with the
// count, why (how long the organization went unpolled, or that delivery was held up), the counts by type
// and by establishment, then what a kitchen must still act on: orders changed after closing and flagged
// notes. Fitted to Slack's limits and mrkdwn-escaped, however long the outage.
import type { CatchUpEvent } from '../../events/catchUpEvent.js';
import { catchUpReason, changesCounted, typeLabel } from '../../events/catchUpText.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { dayLabel } from '../../time/dayLabel.js';
import { context, openingBlocks, SLACK_LIMITS, type SlackMessage, section } from './slackBlocks.js';
import { ELLIPSIS, fitMrkdwn, fitPlain, oneLine } from './slackText.js';

const SAMPLE_NOTICE =
  '*TEST* sent by `meal-notifier send-test` to try this channel: not a real catch-up, nothing happened.';

/** Rows of a count list shown before "…and N more". */
const COUNT_ROWS = 15;

export function formatCatchUpSlackMessage(event: CatchUpEvent): SlackMessage {
  const data = event.data;
  const { title, blocks } = openingBlocks(
    catchUpHeaderText(event),
    isSampleEvent(event) ? SAMPLE_NOTICE : undefined,
  );
  blocks.push(section(fitMrkdwn(catchUpReason(data), SLACK_LIMITS.sectionText)));
  blocks.push({
    type: 'section',
    fields: [
      {
        type: 'mrkdwn',
        text: countsText(
          '*By type*',
          data.by_type.map(({ name, count }) => [typeLabel(name), count]),
        ),
      },
      {
        type: 'mrkdwn',
        text: countsText(
          '*By establishment*',
          data.by_establishment.map(({ name, count }) => [name, count]),
        ),
      },
    ],
  });
  if (data.after_closing_count > 0) {
    const lines = data.after_closing.map(
      (line) =>
        `• ${oneLine(line.reference)}: ${typeLabel(line.type)}, ${oneLine(line.establishment)}, ${dayLabel(line.pickup_date)}`,
    );
    blocks.push(
      section(
        listText(
          `*⚠️ After closing (${data.after_closing_count})*: not in the prep summary already sent`,
          lines,
          data.after_closing_count,
        ),
      ),
    );
  }
  if (data.notes_count > 0) {
    const lines = data.notes.map(
      (line) =>
        `• ${oneLine(line.reference)} — ${oneLine(line.customer)}, ${oneLine(line.establishment)}, ${dayLabel(line.pickup_date)}: ${oneLine(line.notes.join(' · '))}`,
    );
    blocks.push(section(listText(`*📝 Notes to read (${data.notes_count})*`, lines, data.notes_count)));
  }
  blocks.push(
    context(
      fitMrkdwn(
        `${data.organization.name} · each change is in meal-notifier events; webhooks got every one · catch-up ${event.id}`,
        SLACK_LIMITS.contextText,
      ),
    ),
  );
  return {
    text: fitMrkdwn(`${title} — ${catchUpReason(data)}`, SLACK_LIMITS.fallbackText),
    blocks: blocks.slice(0, SLACK_LIMITS.blocks),
  };
}

/** "⏪ Catch-up: 42 changes at North School", within 150 characters: the name gives way first. */
export function catchUpHeaderText(event: CatchUpEvent): string {
  const before = `⏪ Catch-up: ${changesCounted(event.data)} at `;
  const room = Math.max(1, SLACK_LIMITS.headerText - before.length);
  return fitPlain(
    `${before}${fitPlain(oneLine(event.data.organization.name), room)}`,
    SLACK_LIMITS.headerText,
  );
}

/** "*By type*\n12 × New order\n…", the names escaped and cut; within a field's limit. */
function countsText(heading: string, rows: readonly (readonly [string, number])[]): string {
  const lines = rows
    .slice(0, COUNT_ROWS)
    .map(([name, count]) => `${count} × ${fitMrkdwn(oneLine(name), 100)}`);
  const hidden = rows.length - COUNT_ROWS;
  if (hidden > 0) lines.push(`_${ELLIPSIS}and ${hidden} more_`);
  // 15 rows of at most 110 characters stay within a field's 2,000.
  return [heading, ...lines].join('\n');
}

/** A heading and its bullet lines (plain text, escaped here), cut to a section, "…and N more" at the end. */
function listText(heading: string, lines: readonly string[], total: number): string {
  const reserve = `\n_${ELLIPSIS}and ${total} more_`.length;
  let text = heading;
  let shown = 0;
  for (const line of lines) {
    const fitted = fitMrkdwn(line, 500);
    if (text.length + 1 + fitted.length + reserve > SLACK_LIMITS.sectionText) break;
    text += `\n${fitted}`;
    shown += 1;
  }
  const hidden = total - shown;
  return hidden > 0 ? `${text}\n_${ELLIPSIS}and ${hidden} more_` : text;
}
