// The kitchen board's pure logic: versions that order events, the post-or-edit decision, where an event
// lands, what a board counts and shows, and when a change after closing is worth a broadcast.
import { describe, expect, it } from 'vitest';
import type { OrderCard, ReplyRecord } from '../../../../shared/delivery/slack/board/boardMessages.js';
import { CLAIM_TTL_MS } from '../../../../shared/delivery/slack/board/boardMessages.js';
import { placeLabel, placesOf } from '../../../../shared/delivery/slack/board/boardPlacement.js';
import { boardTotals, itemDeltas } from '../../../../shared/delivery/slack/board/boardTotals.js';
import { boardVersion, isOlder } from '../../../../shared/delivery/slack/board/boardVersion.js';
import { decideReply } from '../../../../shared/delivery/slack/board/decideReply.js';
import { cardOf, changesWhatIsCooked } from '../../../../shared/delivery/slack/board/orderCard.js';
import { renderBoard } from '../../../../shared/delivery/slack/board/renderBoard.js';
import { renderBackAfter, renderReply } from '../../../../shared/delivery/slack/board/renderReply.js';
import { DEFAULT_HIGHLIGHT_WORDS } from '../../../../shared/events/noteHighlights.js';
import { makeOrderEvent } from '../../../support/eventFixtures.js';
import { makeOrderItem } from '../../../support/orderFactory.js';
import { expectWithinSlackLimits } from '../slackLimits.js';

const words = DEFAULT_HIGHLIGHT_WORDS;

function card(overrides: Partial<OrderCard> = {}): OrderCard {
  return {
    uuid: 'o1',
    reference: 'NS-1',
    counted: true,
    canceled: false,
    items: [],
    notes: [],
    ...overrides,
  };
}

function reply(overrides: Partial<ReplyRecord> = {}): ReplyRecord {
  return {
    subscriberId: 'kitchen',
    establishmentUuid: 'e1',
    day: '2026-12-01',
    orderUuid: 'o1',
    ts: '1.1',
    claimedAt: 0,
    version: 'v2',
    shownVersion: 'v2',
    card: card(),
    broadcastVersion: null,
    ...overrides,
  };
}

describe('boardVersion', () => {
  it('orders a later snapshot after an earlier one, and a completion before its archiving', () => {
    const created = makeOrderEvent({ type: 'order.created' });
    const completed = makeOrderEvent({ type: 'order.completed' });
    const archived = { ...completed, type: 'order.archived' as const };
    expect(isOlder(boardVersion(created), boardVersion(completed))).toBe(true);
    expect(isOlder(boardVersion(completed), boardVersion(archived))).toBe(true);
    expect(boardVersion(completed)).toBe(boardVersion(structuredClone(completed)));
  });
});

describe('decideReply', () => {
  it('posts an order not in the thread, and edits one shown at an older version', () => {
    expect(decideReply(undefined, 'v1', 0)).toEqual({ kind: 'post' });
    expect(decideReply(reply({ version: 'v1', shownVersion: 'v1' }), 'v2', 0).kind).toBe('edit');
  });

  it('never lets an older event overwrite a newer rendering, nor edits twice for the same one', () => {
    expect(decideReply(reply(), 'v1', 0).kind).toBe('skip');
    expect(decideReply(reply(), 'v2', 0).kind).toBe('skip');
    // Claimed by an edit that did not land: the same event handled again edits.
    expect(decideReply(reply({ shownVersion: 'v1' }), 'v2', 0).kind).toBe('edit');
  });

  it('waits while another handler posts it, and takes over a claim left behind', () => {
    const claimed = reply({ ts: null, claimedAt: 1_000, version: '', shownVersion: null });
    expect(decideReply(claimed, 'v1', 1_500)).toEqual({ kind: 'wait', retryAfterMs: CLAIM_TTL_MS - 500 });
    expect(decideReply(claimed, 'v1', 1_000 + CLAIM_TTL_MS)).toEqual({ kind: 'post', takeOver: claimed });
  });
});

describe('placesOf', () => {
  it('puts a rescheduled order on its new day and names the day it left', () => {
    const event = makeOrderEvent({
      type: 'order.rescheduled',
      order: { pickup_at: '2026-12-01' },
      before: { pickup_at: '2026-11-30' },
    });
    const places = placesOf(event);
    expect(places.current.day).toBe('2026-12-01');
    expect(places.left?.day).toBe('2026-11-30');
    expect(placeLabel(places.current)).toBe('Tue 1 Dec, Main canteen');
    expect(placesOf(makeOrderEvent()).left).toBeUndefined();
  });
});

describe('boardTotals', () => {
  it('counts orders to cook and canceled, totals items most first, flagged notes first', () => {
    const totals = boardTotals([
      card({
        reference: 'NS-2',
        items: [{ name: 'Lasagne', quantity: 2 }],
        notes: [{ label: 'NS-2', note: 'extra bread', flagged: false }],
      }),
      card({
        reference: 'NS-1',
        items: [
          { name: 'Lasagne', quantity: 1 },
          { name: 'Soup', quantity: 1 },
        ],
        notes: [{ label: 'NS-1', note: 'nut allergy', flagged: true }],
      }),
      card({ reference: 'NS-3', counted: false, canceled: true, items: [{ name: 'Soup', quantity: 9 }] }),
      card({
        reference: 'NS-4',
        counted: false,
        movedTo: 'Tue 1 Dec, Café',
        items: [{ name: 'Soup', quantity: 9 }],
      }),
    ]);
    expect(totals).toMatchObject({ orders: 2, canceled: 1 });
    expect(totals.items).toEqual([
      { name: 'Lasagne', quantity: 3 },
      { name: 'Soup', quantity: 1 },
    ]);
    expect(totals.notes.map((note) => note.note)).toEqual(['nut allergy', 'extra bread']);
  });

  it('reports each item whose total moved since closing', () => {
    const totals = boardTotals([card({ items: [{ name: 'Lasagne', quantity: 40 }] })]);
    const closing = {
      closedAt: '2026-12-01T11:00:00+00:00',
      orders: 3,
      items: [
        { name: 'Lasagne', quantity: 42 },
        { name: 'Soup', quantity: 1 },
      ],
    };
    expect(itemDeltas(closing, totals)).toEqual([
      { name: 'Lasagne', from: 42, to: 40 },
      { name: 'Soup', from: 1, to: 0 },
    ]);
  });
});

describe('changesWhatIsCooked', () => {
  it('is a new, canceled or changed order, never a completion', () => {
    const before = card({ items: [{ name: 'Soup', quantity: 1 }] });
    expect(changesWhatIsCooked(undefined, before)).toBe(true);
    expect(changesWhatIsCooked(before, { ...before, counted: false, canceled: true })).toBe(true);
    expect(changesWhatIsCooked(before, { ...before, items: [{ name: 'Soup', quantity: 2 }] })).toBe(true);
    expect(changesWhatIsCooked(before, structuredClone(before))).toBe(false);
    const completed = cardOf(makeOrderEvent({ type: 'order.completed' }), words);
    expect(completed.counted).toBe(true);
  });
});

describe('renderBoard', () => {
  const view = {
    organizationName: 'School',
    establishmentName: 'Main <!channel> Canteen',
    day: '2026-12-02',
    atClosing: null,
  };

  it('shows the place and day, counts, totals and flagged notes, escaped', () => {
    const message = renderBoard(
      view,
      boardTotals([
        card({
          items: [{ name: 'Soup & <b>', quantity: 30 }],
          notes: [{ label: 'NS-1', note: 'nut allergy', flagged: true }],
        }),
      ]),
    );
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('Wed 2 Dec');
    expect(text).toContain('1 order to cook');
    expect(text).toContain('30 × Soup &amp; &lt;b&gt;');
    expect(text).toContain('🚨 *NS-1:* nut allergy');
    // The header is plain_text, shown as typed; mrkdwn (the fallback a notification shows) is escaped.
    expect(message.text).toContain('&lt;!channel&gt;');
    expect(message.text).not.toContain('<!channel>');
  });

  it('becomes the prep list at closing, with deltas and the closing time', () => {
    const atClosing = {
      closedAt: '2026-12-02T11:00:00+00:00',
      orders: 2,
      items: [{ name: 'Lasagne', quantity: 42 }],
    };
    const message = renderBoard(
      { ...view, atClosing },
      boardTotals([card({ items: [{ name: 'Lasagne', quantity: 40 }] })]),
    );
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('📋 Prep list');
    expect(text).toContain('Lasagne 42 → 40');
    expect(text).toContain('closed at 11:00');
  });

  it('stays within Block Kit limits however many items and notes', () => {
    const many = Array.from({ length: 400 }, (_, index) =>
      card({
        uuid: `o${index}`,
        reference: `NS-${index}`,
        items: [{ name: `Dish ${index} ${'x'.repeat(300)}`, quantity: 1 }],
        notes: [{ label: `NS-${index}`, note: 'allergy '.repeat(100), flagged: true }],
      }),
    );
    expectWithinSlackLimits(renderBoard(view, boardTotals(many)));
  });
});

describe('renderReply', () => {
  it('strikes a canceled order through, and says where a moved order went', () => {
    const canceled = makeOrderEvent({
      type: 'order.canceled',
      order: { items: [makeOrderItem({ name: 'Lasagne', quantity: 2 })] },
    });
    expect(JSON.stringify(renderReply(canceled, words, { canceled: true }).blocks)).toContain(
      '~2 × Lasagne~',
    );
    const moved = renderReply(makeOrderEvent({ type: 'order.rescheduled' }), words, {
      canceled: false,
      movedTo: 'Tue 1 Dec, Café Bar',
    });
    expect(JSON.stringify(moved.blocks)).toContain('Moved to Tue 1 Dec, Café Bar');
  });

  it('says an outage in one line', () => {
    expect(renderBackAfter(2 * 3_600_000, 42, 3).text).toBe('⏪ Back after 2 h: 42 changes, 3 after closing');
  });
});
