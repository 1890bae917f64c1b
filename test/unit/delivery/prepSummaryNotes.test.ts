// The day's notes in a prep summary's messages: under the item totals, each with its order's reference,
// class and item, flagged ones (as the summary flagged them) first and marked; escaped, within Slack's
// limits, and within what one SNS message carries on AWS.
import { describe, expect, it } from 'vitest';
import { formatPrepSummaryEmail } from '../../../shared/delivery/email/prepSummaryEmail.js';
import { snsMessageBody } from '../../../shared/delivery/email/snsEmailMessage.js';
import { defaultHighlightWords } from '../../../shared/delivery/highlightWordsOf.js';
import { SLACK_LIMITS, type SlackMessage } from '../../../shared/delivery/slack/slackBlocks.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import type { PrepSummaryEvent } from '../../../shared/events/prepSummaryEvent.js';
import { entryBytes, publishEntry, SNS_BATCH_MAX_BYTES } from '../../../shared/publish/publishEntries.js';
import { makePrepSummary, type OrderSketch } from '../../support/prepSummaryFixtures.js';
import { expectWithinSlackLimits } from './slackLimits.js';

const DAY: OrderSketch[] = [
  {
    reference: 'R-2',
    class: '4A',
    notes: 'Picked up by grandma',
    items: [['SOUP', 'Soup', 2, 'no croutons']],
  },
  { reference: 'R-1', class: '3B', items: [['LAS', 'Lasagne', 1, 'Egg allergy']] },
  { reference: 'R-3', class: null, notes: 'Vegan', items: [['SOUP', 'Soup', 1]] },
];

function sections(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

function withNotes(
  event: PrepSummaryEvent,
  notes: NonNullable<PrepSummaryEvent['data']['notes']>,
  omitted?: number,
) {
  return { ...event, data: { ...event.data, notes, ...(omitted ? { notes_omitted: omitted } : {}) } };
}

describe('Slack: the prep summary’s notes', () => {
  it('come under the item totals, flagged first with 🚨, each naming its order, class and item', () => {
    const texts = sections(formatSlackMessage(makePrepSummary(DAY)));
    const items = texts.findIndex((text) => text.startsWith('*To prepare*'));
    const notes = texts.findIndex((text) => text.startsWith('*Notes*'));
    expect(notes).toBe(items + 1);
    expect(texts[notes]?.split('\n')).toEqual([
      '*Notes*',
      '🚨 *R-1 · 3B · Lasagne:* Egg allergy',
      '🚨 *R-3:* Vegan',
      '• *R-2 · 4A:* Picked up by grandma',
      '• *R-2 · 4A · Soup:* no croutons',
    ]);
    expect(formatSlackMessage(makePrepSummary(DAY)).text).toContain('🚨 2 allergy or diet notes');
  });

  it('follow the flags the summary carries, whatever words the message is given', () => {
    const unflagged = makePrepSummary(DAY, { highlightWords: [] });
    expect(sections(formatSlackMessage(unflagged, ['grandma'])).join('\n')).not.toContain('🚨');
  });

  it('are left out of a summary without notes, or one recorded before notes existed', () => {
    const none = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]);
    expect(sections(formatSlackMessage(none)).some((text) => text.startsWith('*Notes*'))).toBe(false);
    const { notes: _notes, ...before } = none.data;
    expect(
      sections(formatSlackMessage({ ...none, data: before })).some((text) => text.startsWith('*Notes*')),
    ).toBe(false);
  });

  it('escape a hostile note and its label', () => {
    const event = makePrepSummary([
      {
        reference: '<!channel>',
        class: '&',
        notes: '<script>x</script>\r\n*bold* nuts',
        items: [['S', 'Soup', 1]],
      },
    ]);
    const line = sections(formatSlackMessage(event)).find((text) => text.startsWith('*Notes*'));
    expect(line).toBe('*Notes*\n🚨 *&lt;!channel&gt; · &amp;:* &lt;script&gt;x&lt;/script&gt; *bold* nuts');
  });

  it('stay within Slack’s limits however many and long, counting those left out of the message and of the event', () => {
    const event = makePrepSummary(DAY);
    const many = Array.from({ length: 400 }, (_, index) => ({
      reference: `R-${index}`,
      class: 'c'.repeat(300),
      item: { sku: 'S', name: 'n'.repeat(300) },
      note: '&'.repeat(500),
      flagged: index < 10,
    }));
    const message = formatSlackMessage(withNotes(event, many, 25));
    expectWithinSlackLimits(message);
    const lines = sections(message).flatMap((text) => text.split('\n'));
    const shown = lines.filter((line) => /^(🚨|•) \*/.test(line));
    for (const line of shown) expect(line.length).toBeLessThanOrEqual(SLACK_LIMITS.noteLine);
    const more = lines.find((line) => /^_…and \d+ more notes_$/.test(line)) ?? '';
    expect(shown.length + Number(/(\d+)/.exec(more)?.[1])).toBe(400 + 25);
  });
});

describe('E-mail: the prep summary’s notes', () => {
  it('follow the items in the text part, flagged first and marked, each naming its order', () => {
    const { text } = formatPrepSummaryEmail(makePrepSummary(DAY));
    const lines = text.split('\n');
    const at = lines.indexOf('Notes:');
    expect(at).toBeGreaterThan(lines.indexOf('To prepare:'));
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '  [ALLERGY/DIET] R-1 · 3B · Lasagne: Egg allergy',
      '  [ALLERGY/DIET] R-3: Vegan',
      '  R-2 · 4A: Picked up by grandma',
      '  R-2 · 4A · Soup: no croutons',
    ]);
  });

  it('follow the items in HTML, flagged rows highlighted, escaped', () => {
    const event = makePrepSummary([
      { reference: 'R-9', class: '<b>', notes: '<script>x</script> & nuts', items: [['S', 'Soup', 1]] },
    ]);
    const { html } = formatPrepSummaryEmail(event);
    expect(html.indexOf('>Notes</h2>')).toBeGreaterThan(html.indexOf('>To prepare</h2>'));
    expect(html).toContain('<tr style="background:#fdecea">');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt; &amp; nuts');
    expect(html).toContain('R-9 · &lt;b&gt;');
    expect(html).not.toContain('<script>');
  });

  it('say how many notes the summary left out', () => {
    const event = withNotes(makePrepSummary(DAY), [], 12);
    expect(formatPrepSummaryEmail(event).text).toContain(
      "Notes:\n  …and 12 more notes (left out to keep the summary within an event's size)",
    );
  });

  it('reach the SNS e-mail body, and the largest summary still fits one SNS message', () => {
    const { email } = JSON.parse(snsMessageBody(makePrepSummary(DAY), defaultHighlightWords)) as {
      email: string;
    };
    expect(email).toContain('\nNotes:\n  [ALLERGY/DIET] R-1 · 3B · Lasagne: Egg allergy\n');

    // As many item lines and notes as the builder keeps, each as heavy as a note may be.
    const sketches: OrderSketch[] = Array.from({ length: 600 }, (_, index) => ({
      reference: `R-${index}`,
      notes: `${index % 2 ? 'nuts ' : ''}${'"é\\'.repeat(200)}`,
      items: [[`SKU-${index}`, `${'"é'.repeat(150)} ${index}`, 1, '"é\\'.repeat(200)]],
    }));
    const largest = makePrepSummary(sketches);
    expect(largest.data.notes_omitted).toBeGreaterThan(0);
    expect(largest.data.complete).toBe(false);
    expect(entryBytes(publishEntry(largest, defaultHighlightWords))).toBeLessThanOrEqual(SNS_BATCH_MAX_BYTES);
  });
});
