import { describe, expect, it } from 'vitest';
import { SLACK_LIMITS, type SlackMessage } from '../../../shared/delivery/slack/slackBlocks.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import { MAIN_CANTEEN, makePrepSummary, type OrderSketch } from '../../support/prepSummaryFixtures.js';
import { allTexts, expectWithinSlackLimits } from './slackLimits.js';

function header(msg: SlackMessage): string {
  const block = msg.blocks[0];
  if (block?.type !== 'header') throw new Error('expected the first block to be a header');
  return block.text.text;
}

function sectionTexts(msg: SlackMessage): string[] {
  return msg.blocks.flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

function itemLines(msg: SlackMessage): string[] {
  return sectionTexts(msg)
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.includes(' × '));
}

/** `count` orders, each of one distinct item; item i is ordered `quantity(i)` times. */
function distinctItems(
  count: number,
  name: (index: number) => string,
  quantity = (_index: number) => 1,
): OrderSketch[] {
  return Array.from({ length: count }, (_, index) => ({
    items: [[`SKU-${index}`, name(index), quantity(index)]] as Array<[string, string, number]>,
  }));
}

/** 42 orders of the Main Canteen: 12 soups, 8 apples, … across three classes. */
function lunch(): OrderSketch[] {
  return [
    ...Array.from({ length: 12 }, () => ({
      items: [['SOUP-VEG', 'Vegetable soup', 1]] as Array<[string, string, number]>,
      class: '3B',
    })),
    ...Array.from({ length: 8 }, () => ({
      items: [['FRUIT-APL', 'Apple', 1]] as Array<[string, string, number]>,
      class: '4A',
    })),
    ...Array.from({ length: 22 }, () => ({
      items: [['PASTA-BOL', 'Pasta bolognese', 1]] as Array<[string, string, number]>,
      class: null,
    })),
  ];
}

describe('formatSlackMessage for a prep summary', () => {
  it('heads it with the establishment, the count and the day', () => {
    const msg = formatSlackMessage(makePrepSummary(lunch()));
    expect(header(msg)).toBe('🍽 Main Canteen — 42 orders for Tue 24 Nov');
    expect(msg.text).toBe('🍽 Main Canteen — 42 orders for Tue 24 Nov: 3 items, 0 canceled before closing');
  });

  it('says "1 order" for one', () => {
    expect(header(formatSlackMessage(makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }])))).toBe(
      '🍽 Main Canteen — 1 order for Tue 24 Nov',
    );
  });

  it('lists the items by quantity, the orders per class and the cancellations', () => {
    const msg = formatSlackMessage(makePrepSummary(lunch(), { canceledBeforeClosing: 3 }));
    expect(sectionTexts(msg)).toEqual([
      '*To prepare* (3 items, 42 in all)\n22 × Pasta bolognese\n12 × Vegetable soup\n8 × Apple',
      '*Orders by class*\nNo class: 22 · 3B: 12 · 4A: 8',
      '*Canceled before closing:* 3',
    ]);
    expect(msg.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'North School · 2026-11-24 · closed at 10:30' }],
    });
    expectWithinSlackLimits(msg);
  });

  it('tells two items of one name apart by their sku', () => {
    const msg = formatSlackMessage(
      makePrepSummary([
        {
          items: [
            ['S-1', 'Soup', 2],
            ['S-2', 'Soup', 1],
            ['A', 'Apple', 1],
          ],
        },
      ]),
    );
    expect(itemLines(msg)).toEqual(['2 × Soup (S-1)', '1 × Apple', '1 × Soup (S-2)']);
  });

  it('says so when nothing was ordered', () => {
    const msg = formatSlackMessage(makePrepSummary([]));
    expect(header(msg)).toBe('🍽 Main Canteen — 0 orders for Tue 24 Nov');
    expect(sectionTexts(msg)).toEqual(['*To prepare*\nNo items', '*Canceled before closing:* 0']);
  });

  it('warns, right under the header, that an incomplete summary may be short, and why', () => {
    const msg = formatSlackMessage(
      makePrepSummary(lunch(), { incompleteReason: 'the pending listing failed with HTTP 500 until 10:35' }),
    );
    expect(header(msg)).toBe('🍽 Main Canteen — 42 orders for Tue 24 Nov (incomplete)');
    expect(sectionTexts(msg)[0]).toBe(
      '⚠️ Incomplete: the pending listing failed with HTTP 500 until 10:35. Some orders may be missing.',
    );
  });

  it('shows the 100 most-ordered of 500 distinct items and how many more there are, within every limit', () => {
    const msg = formatSlackMessage(
      makePrepSummary(
        distinctItems(
          500,
          (index) => `Dish ${index}`,
          (index) => 500 - index,
        ),
      ),
    );
    const lines = itemLines(msg);
    expect(lines).toHaveLength(SLACK_LIMITS.itemLines);
    expect(lines[0]).toBe('500 × Dish 0');
    expect(lines.at(-1)).toBe('401 × Dish 99');
    expect(sectionTexts(msg)).toContain('_…and 400 more items_');
    expectWithinSlackLimits(msg);
  });

  it('packs 500 distinct long item names into five sections, then stops', () => {
    // 150-character names: the event holds all 500, but only about 18 lines fit a section.
    const event = makePrepSummary(distinctItems(500, (index) => `${index} ${'y'.repeat(150)}`));
    expect(event.data.items).toHaveLength(500);
    const msg = formatSlackMessage(event);
    const shown = itemLines(msg).length;
    const itemSections = sectionTexts(msg).filter((text) => text.includes(' × '));
    expect(itemSections).toHaveLength(SLACK_LIMITS.itemSections);
    expect(shown).toBeLessThan(SLACK_LIMITS.itemLines);
    expect(sectionTexts(msg)).toContain(`_…and ${500 - shown} more items_`);
    expectWithinSlackLimits(msg);
  });

  it('shows the cut a menu too large for one event went through', () => {
    const msg = formatSlackMessage(
      makePrepSummary(distinctItems(500, (index) => `${index} ${'y'.repeat(1000)}`)),
    );
    expect(header(msg)).toMatch(/\(incomplete\)$/);
    expect(sectionTexts(msg)[0]).toMatch(/^⚠️ Incomplete: only the \d+ most-ordered of 500 items are listed/);
    expectWithinSlackLimits(msg);
  });

  it('fits a thousand classes into one section and says how many more there are', () => {
    const sketches = Array.from({ length: 1000 }, (_, index) => ({
      items: [['SOUP', 'Soup', 1]] as Array<[string, string, number]>,
      class: `Class ${String(index).padStart(4, '0')}`,
    }));
    const msg = formatSlackMessage(makePrepSummary(sketches));
    const classes = sectionTexts(msg).find((text) => text.startsWith('*Orders by class*'));
    expect(classes?.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    expect(classes).toMatch(/^\*Orders by class\*\nClass 0000: 1 · Class 0001: 1 · /);
    expect(classes).toMatch(/ · _…and \d+ more classes_$/);
    expectWithinSlackLimits(msg);
  });

  it('stays inside every limit when every name is huge and full of mrkdwn', () => {
    const huge = 'Z&<>'.repeat(2000);
    const msg = formatSlackMessage(
      makePrepSummary(
        Array.from({ length: 500 }, (_, index) => ({
          items: [[`${huge}${index}`, `${huge}${index}`, 1]] as Array<[string, string, number]>,
          class: `${huge}${index}`,
        })),
        {
          establishment: { ...MAIN_CANTEEN, name: huge },
          organization: { id: '0e9a0000-0000-4000-8000-00000000000a', name: huge },
          incompleteReason: huge,
        },
      ),
    );
    expectWithinSlackLimits(msg);
    expect(header(msg)).toMatch(/^🍽 Z&<>.*… — 500 orders for Tue 24 Nov \(incomplete\)$/);
    const mrkdwn = [msg.text, ...msg.blocks.slice(1).flatMap(allTexts)];
    for (const text of mrkdwn) expect(text).not.toMatch(/&(?!amp;|lt;|gt;)|[<>]/);
  });
});
