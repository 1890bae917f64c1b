import { describe, expect, it } from 'vitest';
import { emailSubject, formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import { snsMessageBody, snsSubject } from '../../../shared/delivery/email/snsEmailMessage.js';
import { defaultHighlightWords } from '../../../shared/delivery/highlightWordsOf.js';
import { MAIN_CANTEEN, makePrepSummary, type OrderSketch } from '../../support/prepSummaryFixtures.js';

const LUNCH: OrderSketch[] = [
  {
    items: [
      ['SOUP-VEG', 'Vegetable soup', 2],
      ['FRUIT-APL', 'Apple', 1],
    ],
    class: '3B',
  },
  { items: [['SOUP-VEG', 'Vegetable soup', 10]], class: '4A' },
  { items: [['PASTA-BOL', 'Pasta bolognese', 1]], class: null },
];

describe('the e-mail of a prep summary', () => {
  it('has a subject with the establishment, the count and the day', () => {
    expect(emailSubject(makePrepSummary(LUNCH))).toBe('Prep summary: Main Canteen — 3 orders for Tue 24 Nov');
    expect(emailSubject(makePrepSummary(LUNCH.slice(0, 1)))).toBe(
      'Prep summary: Main Canteen — 1 order for Tue 24 Nov',
    );
  });

  it('lays the figures out as aligned tables in the text part', () => {
    const event = makePrepSummary(LUNCH, { canceledBeforeClosing: 2 });
    expect(formatEmail(event).text).toBe(
      [
        'Organization:            North School',
        'Establishment:           Main Canteen',
        'Pickup date:             Tue 24 Nov (2026-11-24)',
        'Closed at:               10:30, Tue 24 Nov',
        'Orders:                  3',
        'Canceled before closing: 2',
        '',
        'To prepare:',
        '  Qty  Item             SKU',
        '   12  Vegetable soup   SOUP-VEG',
        '    1  Apple            FRUIT-APL',
        '    1  Pasta bolognese  PASTA-BOL',
        '',
        'Orders by class:',
        '  Class     Orders',
        '  3B             1',
        '  4A             1',
        '  No class       1',
        '',
        `Event establishment.prep_summary ${event.id}, recorded 2026-11-24T10:30:04.120Z.`,
        '',
      ].join('\n'),
    );
  });

  it('shows the same tables as <table>s in the HTML part', () => {
    const { html } = formatEmail(makePrepSummary(LUNCH));
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain(
      '<h1 style="font-size:18px;margin:0 0 12px">Prep summary: Main Canteen — 3 orders for Tue 24 Nov</h1>',
    );
    expect(html).toContain('>To prepare</h2>');
    expect(html).toMatch(
      /<thead><tr><th [^>]*text-align:right[^>]*>Qty<\/th><th [^>]*>Item<\/th><th [^>]*>SKU<\/th><\/tr><\/thead>/,
    );
    expect(html).toMatch(
      /<tr><td [^>]*text-align:right">12<\/td><td [^>]*>Vegetable soup<\/td><td [^>]*>SOUP-VEG<\/td><\/tr>/,
    );
    expect(html).toMatch(/<tr><td [^>]*>No class<\/td><td [^>]*text-align:right">1<\/td><\/tr>/);
    expect(html).not.toMatch(/<style|<script|<link/i);
  });

  it('escapes every name in the HTML part and keeps them on one line in the text part', () => {
    const event = makePrepSummary([{ items: [['<b>', 'Fish & <chips>\n"fresh"', 1]], class: "3'B" }], {
      establishment: { ...MAIN_CANTEEN, name: '<script>alert(1)</script>' },
    });
    const { subject, text, html } = formatEmail(event);
    expect(html).toContain('Fish &amp; &lt;chips&gt; &quot;fresh&quot;');
    expect(html).toContain('&lt;b&gt;');
    expect(html).toContain('3&#39;B');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(text).toContain('Fish & <chips> "fresh"');
    expect(subject).not.toMatch(/[\r\n]/);
  });

  it('keeps the SKU column aligned up to long names, which push only their own row', () => {
    const long = 'L'.repeat(60);
    const { text } = formatEmail(
      makePrepSummary([
        {
          items: [
            ['A', long, 2],
            ['B', 'Bread', 1],
          ],
        },
      ]),
    );
    expect(text).toContain(`    2  ${long}  A\n`);
    expect(text).toContain(`    1  Bread${' '.repeat(40 - 5)}  B\n`);
  });

  it('lists every item of a large menu, where a Slack message stops at 100', () => {
    const sketches = Array.from({ length: 500 }, (_, index) => ({
      items: [[`SKU-${index}`, `Dish ${index}`, 1]] as Array<[string, string, number]>,
    }));
    const { text } = formatEmail(makePrepSummary(sketches));
    expect(text.split('\n').filter((line) => /^ {4}1 {2}Dish \d+/.test(line))).toHaveLength(500);
  });

  it('warns first, in both parts and the subject, when the figures are incomplete', () => {
    const event = makePrepSummary(LUNCH, { incompleteReason: 'page 2 of 3 failed with HTTP 500' });
    const { subject, text, html } = formatEmail(event);
    expect(subject).toBe('Prep summary: Main Canteen — 3 orders for Tue 24 Nov (incomplete)');
    expect(text.split('\n')[0]).toBe(
      'Incomplete: page 2 of 3 failed with HTTP 500. Some orders may be missing.',
    );
    expect(html).toContain('>Incomplete: page 2 of 3 failed with HTTP 500. Some orders may be missing.</p>');
  });

  it('says so when nothing was ordered, and leaves out an empty class table', () => {
    const { text, html } = formatEmail(makePrepSummary([]));
    expect(text).toContain('To prepare:\n  No items\n');
    expect(text).not.toContain('Orders by class');
    expect(html).not.toContain('Orders by class');
  });
});

describe('a prep summary on SNS', () => {
  it('gets an ASCII subject SNS accepts', () => {
    expect(snsSubject(makePrepSummary(LUNCH))).toBe('Prep summary: Main Canteen - 3 orders for Tue 24 Nov');
  });

  it('carries the CloudEvent for the queues and the text e-mail for e-mail subscriptions', () => {
    const event = makePrepSummary(LUNCH);
    const body = JSON.parse(snsMessageBody(event, defaultHighlightWords)) as {
      default: string;
      email: string;
    };
    expect(JSON.parse(body.default)).toEqual(event);
    expect(body.email).toBe(`${formatEmail(event).subject}\n\n${formatEmail(event).text}`);
  });
});
