import { describe, expect, it } from 'vitest';
import { fitColumns } from '../../../cli/output/fitColumns.js';
import { renderTable, type TableSpec } from '../../../cli/output/fitTable.js';
import { wrapText } from '../../../cli/output/wrapText.js';
import { hostile, obeyedControls } from '../../support/terminalControls.js';

const EVENT_ID = 'a1b2c3d4-e5f6-8abc-9def-0123456789ab';
const ERROR =
  'https://hooks.example.test/orders answered 500 Internal Server Error after 15 s, twice in a row';

const deliveries: TableSpec = {
  head: ['Subscriber', 'Event', 'Status'],
  rows: [
    ['accounting-automation', `order.created NS-1064\n${EVENT_ID}`, 'queued\n3 attempts\nnext in 12 min'],
    { note: `last error: ${ERROR}` },
    ['legacy', `order.canceled NS-1065\n${EVENT_ID}`, 'dead\n1 attempt'],
  ],
};

const lines = (text: string) => text.split('\n');
const longest = (text: string) => Math.max(...lines(text).map((line) => [...line].length));
/** The words of a table's text, borders and padding gone. */
const words = (text: string) => text.split(/[\s│┌┐└┘├┤┬┴┼─]+/).filter(Boolean);

describe('tables fitted to a width', () => {
  it('keep every row on one line, notes included, when there is no width to fit', () => {
    const table = renderTable(deliveries, undefined);
    expect(table).toContain(`│ last error: ${ERROR} │`);
    expect(table).toContain(`│ accounting-automation │ order.created NS-1064 `);
  });

  it.each([undefined, 40])(
    'show the control characters of their cells, the columns as wide as what is shown (width %s)',
    (width) => {
      const table = renderTable(
        {
          head: ['Order', 'Customer'],
          rows: [[hostile('NS-1'), `Ana\u202e Silva\r`], { note: `last error: ${hostile('500')}` }],
        },
        width,
      );
      expect(obeyedControls(table)).toEqual([]);
      expect(table).toContain('NS-1\\x1b]52;c;');
      // Every line of the frame, borders included, is as wide as the first.
      const widths = lines(table).map((line) => [...line].length);
      if (width === undefined) expect(new Set(widths).size).toBe(1);
      else expect(Math.max(...widths)).toBeLessThanOrEqual(width);
    },
  );

  it.each([80, 60, 40])('print no line longer than %i columns and cut nothing off', (width) => {
    const table = renderTable(deliveries, width);
    expect(longest(table)).toBeLessThanOrEqual(width);
    expect(table).not.toContain('…');
    // Broken words aside (none at 80), every word is there.
    if (width === 80) {
      for (const word of words(ERROR)) expect(words(table)).toContain(word);
      expect(table).toContain(EVENT_ID);
    }
  });

  it('widen the last column for a note as far as the width allows, then wrap it', () => {
    const table = renderTable(deliveries, 80);
    expect(longest(table)).toBe(80);
    expect(table).toMatch(
      /│ last error: https:\/\/hooks\.example\.test\/orders answered 500 Internal Server +│\n│ Error after/,
    );
  });

  it('wrap a header over a one-line value before the value', () => {
    // Natural: 12 + 20 + 11 = 43; 38 available takes the 5 from a header alone, which wraps once.
    const columns = [
      ['Organization', 'North School'],
      ['Last successful poll', '2026-11-22 21:10:23Z'],
      ['Events 24 h', '2'],
    ];
    expect(fitColumns(columns, 38)).toEqual([12, 20, 6]);
  });

  it('give where it costs the table the fewest lines', () => {
    // The status table on an 80-column terminal: 61 for the text of six columns.
    const columns = [
      ['Organization', 'North School', 'South Academy Annex'],
      ['Last successful poll', '2026-11-22 21:10:23Z (5 s ago)', 'never'],
      ['Failures', '0', '2'],
      ['Snapshots', '37', '0'],
      ['Events 1 h', '2', '0'],
      ['Events 24 h', '2', '0'],
    ];
    // Rows of two lines each ("South Academy" / "Annex", "2026-11-22" / "21:10:23Z (5 s ago)"); giving
    // the name one more place would take a third line ("South" / "Academy" / "Annex").
    expect(fitColumns(columns, 61)).toEqual([13, 19, 8, 9, 6, 6]);
  });

  it('break a word only once no column can give more', () => {
    const columns = [
      ['Event', EVENT_ID],
      ['Status', 'queued next in 12 min'],
    ];
    // 36 + 21 natural: the status wraps at spaces down to its longest word, 6, before the id breaks.
    expect(fitColumns(columns, 50)).toEqual([36, 14]);
    expect(fitColumns(columns, 42)).toEqual([36, 6]);
    expect(fitColumns(columns, 40)).toEqual([34, 6]);
  });
});

describe('tables too narrow for their words', () => {
  const orders: TableSpec = {
    head: ['Order', 'Status', 'Pickup', 'Establishment', 'Customer', 'Total', 'Items'],
    rows: [
      ['NS-1005', 'pending', '2026-11-23', 'Café Bar', 'Matilde Ribeiro (5B)', '€3.50 credit', '1'],
      { note: 'allergy: peanuts, sesame; pick up at the side door after the second bell' },
      ['NS-1008', 'canceled', '2026-11-24', 'Sports Hall Kiosk', 'Ana Ribeiro (7B)', '€1.80 card', '2'],
    ],
  };

  it('show each row as its headers beside its values, rather than break "NS-1005" or "pending"', () => {
    expect(renderTable(orders, 40)).toBe(
      [
        'Order          NS-1005',
        'Status         pending',
        'Pickup         2026-11-23',
        'Establishment  Café Bar',
        'Customer       Matilde Ribeiro (5B)',
        'Total          €3.50 credit',
        'Items          1',
        'allergy: peanuts, sesame; pick up at the',
        'side door after the second bell',
        '',
        'Order          NS-1008',
        'Status         canceled',
        'Pickup         2026-11-24',
        'Establishment  Sports Hall Kiosk',
        'Customer       Ana Ribeiro (7B)',
        'Total          €1.80 card',
        'Items          2',
      ].join('\n'),
    );
  });

  it('wrap a long value under itself, past the headers', () => {
    const table = renderTable({ head: ['Event', 'Status'], rows: [[EVENT_ID, 'queued next in 12 min']] }, 25);
    expect(table).toBe(
      [
        'Event   a1b2c3d4-e5f6-8ab',
        '        c-9def-0123456789',
        '        ab',
        'Status  queued next in 12',
        '        min',
      ].join('\n'),
    );
  });

  it('stay a table where only an id or a URL, longer than any layout that narrow, would break', () => {
    // At 60 the deliveries table's id (36) cannot stay whole beside its subscriber (21); its words up to
    // 16 long can.
    expect(renderTable(deliveries, 60)).toMatch(/^┌/);
    expect(renderTable(deliveries, 60)).toContain('│ accounting-automat');
  });

  it('stay a table at the width where every word fits its column', () => {
    // Longest words 7 + 8 + 10 + 13 + 8 + 6 + 5 = 57, and 1 + 3 per column of borders: 79.
    expect(renderTable(orders, 79)).toMatch(/^┌/);
    expect(renderTable(orders, 78)).toMatch(/^Order {10}NS-1005$/m);
  });
});

describe('wrapping a cell', () => {
  it('wraps at spaces, keeps its own lines, and breaks only a word longer than the width', () => {
    expect(wrapText('queued next in 12 min', 10)).toEqual(['queued', 'next in 12', 'min']);
    expect(wrapText('order.created NS-1\nid', 20)).toEqual(['order.created NS-1', 'id']);
    expect(wrapText('abcdefghij k', 4)).toEqual(['abcd', 'efgh', 'ij k']);
  });

  it('counts a wide character as two columns', () => {
    expect(wrapText('食堂 食堂', 4)).toEqual(['食堂', '食堂']);
  });
});
