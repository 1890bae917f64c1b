// An order's notes in every message a person reads, in both runtimes: Slack (local sender and the Slack
// Lambda alike), the e-mail's text and HTML parts (SMTP) and the SNS e-mail body (AWS). The notes come
// before the items, those naming an allergy or a diet first and marked, with the organization's words;
// escaped for each medium and fitted to its limits, however hostile or long.
import { describe, expect, it } from 'vitest';
import type { OrderInput } from '../../../shared/api/schemas.js';
import { formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import { snsMessageBody } from '../../../shared/delivery/email/snsEmailMessage.js';
import { defaultHighlightWords, highlightWordsOf } from '../../../shared/delivery/highlightWordsOf.js';
import { SLACK_LIMITS, type SlackMessage } from '../../../shared/delivery/slack/slackBlocks.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem } from '../../support/orderFactory.js';
import { allTexts, expectWithinSlackLimits } from './slackLimits.js';

const HOSTILE = '<script>alert(1)</script> & <!channel> *bold* _it_\r\nSubject: injected\nno nuts';

function orderWithNotes(overrides: Partial<OrderInput> = {}): OrderEvent {
  return makeOrderEvent({
    order: {
      reference: 'R-1042',
      notes: 'Picked up by grandma',
      items: [
        makeOrderItem({ sku: 'SOUP', name: 'Soup', notes: 'no croutons' }),
        makeOrderItem({ sku: 'LAS', name: 'Lasagne', quantity: 2, notes: 'Egg allergy' }),
        makeOrderItem({ sku: 'JUICE', name: 'Juice', notes: null }),
      ],
      ...overrides,
    },
  });
}

/** The mrkdwn of every section without fields, in block order. */
function sectionTexts(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

function slackText(message: SlackMessage): string {
  return message.blocks.flatMap(allTexts).join('\n');
}

/** The lines under `heading` in an e-mail's text part, up to the next blank line. */
function textSection(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('Slack: an order’s notes', () => {
  it('come before the items, flagged ones first with 🚨, each labelled with what it is on', () => {
    const sections = sectionTexts(formatSlackMessage(orderWithNotes()));
    const notes = sections.findIndex((text) => text.startsWith('*Notes*'));
    const items = sections.findIndex((text) => text.startsWith('*Items'));
    expect(notes).toBeGreaterThanOrEqual(0);
    expect(notes).toBeLessThan(items);
    expect(sections[notes]?.split('\n')).toEqual([
      '*Notes*',
      '🚨 *Lasagne:* Egg allergy',
      '• *Order:* Picked up by grandma',
      '• *Soup:* no croutons',
    ]);
  });

  it('put an allergy in the notification preview', () => {
    expect(formatSlackMessage(orderWithNotes()).text).toContain('🚨 allergy or diet note');
    expect(formatSlackMessage(orderWithNotes(), []).text).not.toContain('🚨');
  });

  it("flag with the organization's words, and with none when its list is empty", () => {
    const own = sectionTexts(formatSlackMessage(orderWithNotes(), ['grandma'])).join('\n');
    expect(own).toContain('🚨 *Order:* Picked up by grandma');
    expect(own).toContain('• *Lasagne:* Egg allergy');
    expect(slackText(formatSlackMessage(orderWithNotes(), []))).not.toContain('🚨');
  });

  it('leave no notes section for an order without notes', () => {
    const message = formatSlackMessage(makeOrderEvent({ order: { notes: null } }));
    expect(sectionTexts(message).some((text) => text.startsWith('*Notes*'))).toBe(false);
  });

  it('show a hostile note as text: escaped, on one line, the label intact', () => {
    const message = formatSlackMessage(orderWithNotes({ notes: HOSTILE }));
    const line = sectionTexts(message)
      .flatMap((text) => text.split('\n'))
      .find((candidate) => candidate.includes('*Order:*'));
    expect(line).toBe(
      '🚨 *Order:* &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;!channel&gt; *bold* _it_ Subject: injected no nuts',
    );
    expect(slackText(message)).not.toMatch(/<!channel>|<script>/);
    expectWithinSlackLimits(message);
  });

  it('stay within Slack’s limits for very long notes and many of them, saying how many are left out', () => {
    const items = Array.from({ length: 300 }, (_, index) =>
      makeOrderItem({
        sku: `S-${index}`,
        name: `Dish ${index}`,
        notes: `${index % 3 ? 'nuts ' : ''}${'&'.repeat(5_000)}`,
      }),
    );
    const event = orderWithNotes({ notes: 'x'.repeat(20_000), items });
    const message = formatSlackMessage(event);
    expectWithinSlackLimits(message);
    const lines = sectionTexts(message).flatMap((text) => text.split('\n'));
    const noteLines = lines.filter((line) => /^(🚨|•) \*/.test(line));
    for (const line of noteLines) expect(line.length).toBeLessThanOrEqual(SLACK_LIMITS.noteLine);
    // Cut between characters, never inside an escape.
    expect(noteLines.every((line) => !/&a?m?p?…/.test(line))).toBe(true);
    const more = lines.find((line) => /^_…and \d+ more notes_$/.test(line));
    expect(more).toBeDefined();
    // Every note the event carries (its order note and its lines' notes) is shown or counted.
    const carried = 1 + event.data.order.items.length;
    expect(noteLines.length + Number(/(\d+)/.exec(more ?? '')?.[1])).toBe(carried);
    // The flagged ones first.
    expect(noteLines[0]?.startsWith('🚨')).toBe(true);
  });

  it('keep counting the item lines the event itself left out', () => {
    const event = orderWithNotes();
    const cut = { ...event, data: { ...event.data, order: { ...event.data.order, items_omitted: 7 } } };
    const sections = sectionTexts(formatSlackMessage(cut));
    expect(sections).toContain('_…and 7 more items_');
    expect(sections.some((text) => text.startsWith('*Items (10)*'))).toBe(true);
  });
});

describe('E-mail: an order’s notes', () => {
  it('come before the items in the text part, flagged ones first and marked ALLERGY/DIET', () => {
    const { text } = formatEmail(orderWithNotes());
    expect(text.indexOf('\nNotes:\n')).toBeLessThan(text.indexOf('\nItems:\n'));
    expect(textSection(text, 'Notes:')).toEqual([
      '  [ALLERGY/DIET] Lasagne: Egg allergy',
      '  Order: Picked up by grandma',
      '  Soup: no croutons',
    ]);
  });

  it('come before the items in the HTML part, a flagged note’s row highlighted and marked', () => {
    const { html } = formatEmail(orderWithNotes());
    expect(html.indexOf('>Notes</h2>')).toBeLessThan(html.indexOf('>Items</h2>'));
    const rows = html
      .split('\n')
      .filter((line) => line.startsWith('<tr') && line.includes('font-weight:bold">'));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(
      /^<tr style="background:#fdecea">.*ALLERGY\/DIET<\/span>.*>Lasagne<\/th>.*>Egg allergy<\/td><\/tr>$/,
    );
    expect(rows[1]).toMatch(/^<tr><td[^>]*><\/td>.*>Order<\/th>/);
  });

  it("flag with the organization's words, and with none when its list is empty", () => {
    expect(textSection(formatEmail(orderWithNotes(), ['grandma']).text, 'Notes:')[0]).toBe(
      '  [ALLERGY/DIET] Order: Picked up by grandma',
    );
    const none = formatEmail(orderWithNotes(), []);
    expect(none.text).not.toContain('ALLERGY/DIET');
    expect(none.html).not.toContain('ALLERGY/DIET');
  });

  it('leave the notes out of an order without any', () => {
    const { text, html } = formatEmail(makeOrderEvent({ order: { notes: null } }));
    expect(text).not.toContain('Notes:');
    expect(html).not.toContain('>Notes</h2>');
  });

  it('show a hostile note escaped in HTML and on one line in text, never as a header', () => {
    const { subject, text, html } = formatEmail(orderWithNotes({ notes: HOSTILE }));
    expect(subject).not.toMatch(/[\r\n]/);
    expect(text).not.toContain('\r');
    expect(text).not.toMatch(/^Subject:/m);
    expect(textSection(text, 'Notes:')).toContain(
      '  [ALLERGY/DIET] Order: <script>alert(1)</script> & <!channel> *bold* _it_ Subject: injected no nuts',
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;!channel&gt; *bold* _it_ Subject: injected no nuts',
    );
  });

  it('still count the item lines the event itself left out', () => {
    const event = orderWithNotes();
    const cut = { ...event, data: { ...event.data, order: { ...event.data.order, items_omitted: 7 } } };
    expect(textSection(formatEmail(cut).text, 'Items:').at(-1)).toBe('  …and 7 more items');
  });
});

describe('SNS e-mail body (AWS): an order’s notes', () => {
  const ORG = makeOrderEvent().data.organization.id;

  it('come before the items, flagged with the words of the event’s organization', () => {
    const { email } = JSON.parse(snsMessageBody(orderWithNotes(), defaultHighlightWords)) as {
      email: string;
    };
    expect(email.indexOf('\nNotes:\n')).toBeLessThan(email.indexOf('\nItems:\n'));
    expect(textSection(email, 'Notes:')[0]).toBe('  [ALLERGY/DIET] Lasagne: Egg allergy');

    const words = highlightWordsOf([{ id: ORG.toUpperCase(), highlightWords: ['grandma'] }]);
    const own = JSON.parse(snsMessageBody(orderWithNotes(), words)) as { email: string };
    expect(textSection(own.email, 'Notes:')).toEqual([
      '  [ALLERGY/DIET] Order: Picked up by grandma',
      '  Soup: no croutons',
      '  Lasagne: Egg allergy',
    ]);
  });

  it('keep a hostile note on one line', () => {
    const { email } = JSON.parse(
      snsMessageBody(orderWithNotes({ notes: HOSTILE }), defaultHighlightWords),
    ) as {
      email: string;
    };
    expect(email).not.toContain('\r');
    expect(email).not.toMatch(/^Subject:/m);
  });
});

describe('highlightWordsOf', () => {
  it('gives each organization its words, and the defaults to one the config does not have', () => {
    const words = highlightWordsOf([
      { id: 'a', highlightWords: ['gluten'] },
      { id: 'b', highlightWords: [] },
    ]);
    expect(words('a')).toEqual(['gluten']);
    expect(words('B')).toEqual([]);
    expect(words('c')).toEqual(defaultHighlightWords('c'));
    expect(words('c')).toContain('allergy');
  });
});
