// Pins the Slack message of a prep_changed: its header ("✏️ Main Canteen, Thu 26 Nov: changes since the
// 11:00 summary"), the deltas then the orders behind them, a notes-only change, the sample's marker, and
// Slack's limits and mrkdwn escaping whatever the names hold.
import { describe, expect, it } from 'vitest';
import {
  SAMPLE_HEADER_PREFIX,
  SLACK_LIMITS,
  type SlackMessage,
} from '../../../shared/delivery/slack/slackBlocks.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import type { PrepChangedEvent } from '../../../shared/events/prepChangedEvent.js';
import { orderUuid } from '../../support/orderFactory.js';
import { makePrepChanged } from '../../support/prepChangedFixtures.js';
import { MAIN_CANTEEN } from '../../support/prepSummaryFixtures.js';
import { allTexts, expectWithinSlackLimits } from './slackLimits.js';

function header(msg: SlackMessage): string {
  const block = msg.blocks[0];
  if (block?.type !== 'header') throw new Error('expected the first block to be a header');
  return block.text.text;
}

function sectionTexts(msg: SlackMessage): string[] {
  return msg.blocks.flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

/** `count` distinct item deltas, each one unit fewer, named by `name`. */
function deltas(count: number, name: (index: number) => string) {
  return Array.from({ length: count }, (_, index) => ({
    sku: `SKU-${index}`,
    name: name(index),
    from: 10,
    to: 9,
  }));
}

/** `count` canceled orders, referenced by `reference`. */
function canceled(count: number, reference: (index: number) => string) {
  return Array.from({ length: count }, (_, index) => ({
    uuid: orderUuid(index + 1),
    reference: reference(index),
    change: 'canceled' as const,
  }));
}

/** A prep_changed whose data carries exactly these lists, as if the builder had cut them. */
function withData(data: Partial<PrepChangedEvent['data']>): PrepChangedEvent {
  const event = makePrepChanged();
  return { ...event, data: { ...event.data, ...data } };
}

describe('formatSlackMessage for a prep_changed', () => {
  it('heads it with the kitchen, the day and the summary it amends', () => {
    const msg = formatSlackMessage(makePrepChanged());
    expect(header(msg)).toBe('✏️ Main Canteen, Thu 26 Nov: changes since the 11:00 summary');
    expect(msg.text).toBe(
      '✏️ Main Canteen, Thu 26 Nov: changes since the 11:00 summary: 2 orders · Lasagne: 42 → 40 · Vegetable soup: 12 → 13',
    );
  });

  it('lists the deltas, then the orders behind them, then the small print', () => {
    const msg = formatSlackMessage(makePrepChanged());
    expect(sectionTexts(msg)).toEqual([
      '*Quantities*\nLasagne: 42 → 40\nVegetable soup: 12 → 13',
      '*Orders behind them*\nR-1042\nR-1043',
    ]);
    expect(msg.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'North School · 2026-11-26 · summary of 11:00' }],
    });
    expectWithinSlackLimits(msg);
  });

  it('names the orders behind the totals by reference only, whatever they did: each one’s own message says that', () => {
    const msg = formatSlackMessage(
      makePrepChanged({
        orders: (['created', 'canceled', 'restored', 'updated', 'moved_in', 'moved_out'] as const).map(
          (change, index) => ({ uuid: orderUuid(index + 1), reference: `R-${index}`, change }),
        ),
      }),
    );
    expect(sectionTexts(msg)[1]).toBe('*Orders behind them*\nR-0\nR-1\nR-2\nR-3\nR-4\nR-5');
  });

  it('says so when only notes changed', () => {
    const msg = formatSlackMessage(
      makePrepChanged({
        items: [],
        orders: [{ uuid: orderUuid(1), reference: 'R-1', change: 'updated', notes_changed: true }],
      }),
    );
    expect(sectionTexts(msg)[0]).toBe('*Quantities*\nNo quantity changed: only notes');
    expect(msg.text).toMatch(/: 1 order · notes only$/);
  });

  it('tells two items of one name apart by their sku', () => {
    const msg = formatSlackMessage(
      makePrepChanged({
        items: [
          { sku: 'S-1', name: 'Soup', from: 2, to: 3 },
          { sku: 'S-2', name: 'Soup', from: 1, to: 0 },
        ],
      }),
    );
    expect(sectionTexts(msg)[0]).toBe('*Quantities*\nSoup (S-1): 2 → 3\nSoup (S-2): 1 → 0');
  });

  it('marks a sample as a test in its header and right below it', () => {
    const event = makePrepChanged();
    const msg = formatSlackMessage({ ...event, data: { ...event.data, test: true } });
    expect(header(msg).startsWith(SAMPLE_HEADER_PREFIX)).toBe(true);
    const notice = msg.blocks[1];
    if (notice?.type !== 'context') throw new Error('expected the notice below the header');
    expect(allTexts(notice)[0]).toMatch(/^\*TEST\* sent by `meal-notifier send-test`/);
  });

  it('shows 100 of 500 deltas and 100 of 500 orders, and how many more there are, within every limit', () => {
    const msg = formatSlackMessage(
      makePrepChanged({
        items: deltas(500, (index) => `Dish ${index}`),
        orders: canceled(500, (index) => `R-${String(index).padStart(4, '0')}`),
      }),
    );
    expect(sectionTexts(msg)).toContain('_…and 400 more items_');
    expect(sectionTexts(msg)).toContain('_…and 400 more orders_');
    expectWithinSlackLimits(msg);
  });

  it('packs long names into five sections per list, then stops, counting what the event left out', () => {
    const msg = formatSlackMessage(
      withData({
        items: deltas(300, (index) => `${index} ${'y'.repeat(400)}`),
        items_omitted: 7,
        orders: canceled(300, (index) => `${index} ${'r'.repeat(400)}`),
        orders_omitted: 3,
      }),
    );
    const itemSections = sectionTexts(msg).filter((text) => text.includes(' → '));
    expect(itemSections).toHaveLength(SLACK_LIMITS.itemSections);
    const shownItems = itemSections
      .flatMap((text) => text.split('\n'))
      .filter((line) => line.includes(' → '));
    expect(shownItems.every((line) => line.length <= SLACK_LIMITS.itemLine)).toBe(true);
    expect(sectionTexts(msg)).toContain(`_…and ${300 - shownItems.length + 7} more items_`);
    expect(sectionTexts(msg).some((text) => /^_…and \d+ more orders_$/.test(text))).toBe(true);
    expect(msg.text).toMatch(/summary: 303 orders · 0 y+/);
    expectWithinSlackLimits(msg);
  });

  it('fits a huge establishment name into the header, which gives way before the day and the summary', () => {
    const msg = formatSlackMessage(
      makePrepChanged({ establishment: { ...MAIN_CANTEEN, name: 'Canteen '.repeat(100) } }),
    );
    expect(header(msg).length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    expect(header(msg)).toMatch(/^✏️ Canteen Canteen .*…, Thu 26 Nov: changes since the 11:00 summary$/);
  });

  it('escapes every name for mrkdwn and keeps control characters out, however hostile', () => {
    const hostile =
      'A&B <!channel> <@U123> <https://evil.test|click> *bold* _it_ ~s~ `c`\u0000\u001b\r\n\u2028x';
    const msg = formatSlackMessage(
      makePrepChanged({
        organization: { id: '0e9a0000-0000-4000-8000-00000000000a', name: hostile },
        establishment: { ...MAIN_CANTEEN, name: hostile },
        items: [{ sku: hostile, name: hostile, from: 1, to: 2 }],
        orders: [{ uuid: orderUuid(1), reference: hostile, change: 'created' }],
      }),
    );
    expectWithinSlackLimits(msg);
    const mrkdwn = [msg.text, ...msg.blocks.slice(1).flatMap(allTexts)];
    for (const text of mrkdwn) expect(text).not.toMatch(/&(?!amp;|lt;|gt;)|[<>]/);
    // Line breaks are the message's own, between lines; none comes from a name.
    const lines = [header(msg), ...mrkdwn].flatMap((text) => text.split('\n'));
    for (const line of lines) expect(line).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(sectionTexts(msg)[0]?.split('\n')[1]).toBe(
      'A&amp;B &lt;!channel&gt; &lt;@U123&gt; &lt;https://evil.test|click&gt; *bold* _it_ ~s~ `c` x: 1 → 2',
    );
    expect(sectionTexts(msg)[1]?.split('\n')).toHaveLength(2);
    expect(header(msg)).toContain('A&B <!channel>');
  });
});
