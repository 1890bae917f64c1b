import { describe, expect, it } from 'vitest';
import { SLACK_LIMITS, type SlackMessage } from '../../../shared/delivery/slack/slackBlocks.js';
import { formatSlackMessage } from '../../../shared/delivery/slack/slackMessage.js';
import { escapeMrkdwn, fitMrkdwn, fitPlain } from '../../../shared/delivery/slack/slackText.js';
import type { OrderEventType as EventType, OrderEvent } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { sampleEvent } from '../../../shared/events/sampleEvent.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem, money } from '../../support/orderFactory.js';
import { allTexts, expectWithinSlackLimits } from './slackLimits.js';

type OrderOverrides = NonNullable<Parameters<typeof makeOrderEvent>[0]>['order'];

function message(type: EventType = 'order.created', order: OrderOverrides = {}): SlackMessage {
  return formatSlackMessage(makeOrderEvent({ type, order }));
}

function header(msg: SlackMessage): string {
  const block = msg.blocks[0];
  if (block?.type !== 'header') throw new Error('expected the first block to be a header');
  return block.text.text;
}

function fields(msg: SlackMessage): string[] {
  const block = msg.blocks.find((candidate) => candidate.type === 'section' && candidate.fields);
  if (block?.type !== 'section' || !block.fields) throw new Error('expected a section with fields');
  return block.fields.map((field) => field.text);
}

/** The text of every section without fields, i.e. the item lines and what follows them. */
function sectionTexts(msg: SlackMessage): string[] {
  return msg.blocks.flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

function itemLines(msg: SlackMessage): string[] {
  return sectionTexts(msg)
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.includes(' × '));
}

function items(count: number, name: (index: number) => string = (index) => `Dish ${index + 1}`) {
  return Array.from({ length: count }, (_, index) => makeOrderItem({ name: name(index), quantity: 1 }));
}

describe('formatSlackMessage header', () => {
  it.each([
    ['order.created', '🆕 New order R-1042'],
    ['order.completed', '✅ Completed R-1042'],
    ['order.canceled', '❌ Canceled R-1042'],
    ['order.archived', '📦 Archived R-1042'],
    ['order.status_changed', '🔄 R-1042 is now preparing'],
    ['order.rescheduled', '📅 Rescheduled R-1042'],
  ] as const)('names the %s transition', (type, expected) => {
    const msg = message(type, { reference: 'R-1042' });
    expect(header(msg)).toBe(expected);
    expect(msg.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: expected, emoji: true },
    });
  });

  it('starts the fallback text with the header', () => {
    expect(message('order.canceled', { reference: 'R-1042' }).text).toMatch(/^❌ Canceled R-1042 — /);
  });

  it('cuts a 5000-character reference to 150 characters and keeps the transition readable', () => {
    const msg = message('order.status_changed', { reference: 'R'.repeat(5000) });
    const text = header(msg);
    expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    expect(text).toMatch(/^🔄 R+… is now preparing$/);
    expectWithinSlackLimits(msg);
  });
});

describe('formatSlackMessage fields', () => {
  it('lists reference, establishment, pickup date, customer and class, total and payment method', () => {
    const msg = message('order.created', {
      reference: 'R-1042',
      establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Canteen 2' },
      pickup_at: '23/11/26',
      total: money(1250),
      payment_method_type: { label: 'Card', value: 'card' },
    });
    expect(fields(msg)).toEqual([
      '*Reference*\nR-1042',
      '*Establishment*\nCanteen 2',
      '*Pickup date*\nMon 23 Nov',
      '*Customer*\nAna Silva (3B)',
      '*Total*\n€12.50',
      '*Payment method*\nCard',
    ]);
  });

  it('shows the customer alone when there is no class', () => {
    const msg = message('order.created', {
      customer: {
        uuid: '00000000-0000-4000-9000-000000000999',
        full_name: 'Rita Sousa',
        class: null,
        parent: null,
      },
    });
    expect(fields(msg)).toContain('*Customer*\nRita Sousa');
  });

  it('cuts a 5000-character customer name to fit a field and the fallback text', () => {
    const msg = message('order.created', {
      customer: {
        uuid: '00000000-0000-4000-9000-000000000999',
        full_name: 'A'.repeat(5000),
        class: '3B',
        parent: null,
      },
    });
    const customer = fields(msg).find((field) => field.startsWith('*Customer*'));
    expect(customer?.length).toBe(SLACK_LIMITS.fieldText);
    expect(customer).toMatch(/A…$/);
    expect(msg.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
    expect(msg.text).toMatch(/…$/);
    expectWithinSlackLimits(msg);
  });

  it('shows an unknown payment method as the API names it', () => {
    const msg = message('order.created', { payment_method_type: { label: 'Voucher', value: 'voucher' } });
    expect(fields(msg)).toContain('*Payment method*\nvoucher');
  });
});

describe('formatSlackMessage items', () => {
  it('lists each item as "quantity × name" under a heading with the count', () => {
    const msg = message('order.created', {
      items: [
        makeOrderItem({ name: 'Orange juice', quantity: 2 }),
        makeOrderItem({ name: 'Apple', quantity: 1 }),
      ],
    });
    expect(sectionTexts(msg)).toEqual(['*Items (2)*\n2 × Orange juice\n1 × Apple']);
  });

  it('says so when an order has no items', () => {
    expect(sectionTexts(message('order.created', { items: [] }))).toEqual(['*Items (0)*\nNo items']);
  });

  it('keeps an item name with line breaks on one line', () => {
    const msg = message('order.created', {
      items: [makeOrderItem({ name: 'Soup\nof the\t day', quantity: 1 })],
    });
    expect(itemLines(msg)).toEqual(['1 × Soup of the day']);
  });

  it('shows the first 100 of 200 items and says how many more there are', () => {
    const msg = message('order.created', { items: items(200) });
    const lines = itemLines(msg);
    expect(lines).toHaveLength(SLACK_LIMITS.itemLines);
    expect(lines[0]).toBe('1 × Dish 1');
    expect(lines.at(-1)).toBe('1 × Dish 100');
    expect(sectionTexts(msg).at(-1)).toBe('_…and 100 more items_');
    expect(sectionTexts(msg)[0]).toMatch(/^\*Items \(200\)\*\n/);
    expectWithinSlackLimits(msg);
  });

  it('uses the singular for one hidden item', () => {
    const msg = message('order.created', { items: items(SLACK_LIMITS.itemLines + 1) });
    expect(sectionTexts(msg).at(-1)).toBe('_…and 1 more item_');
  });

  it('cuts a 5000-character item name to one line of 300 characters', () => {
    const msg = message('order.created', { items: [makeOrderItem({ name: 'x'.repeat(5000), quantity: 3 })] });
    const [line] = itemLines(msg);
    expect(line?.length).toBe(SLACK_LIMITS.itemLine);
    expect(line).toMatch(/^3 × x+…$/);
    expectWithinSlackLimits(msg);
  });

  it('packs long item lines into several sections of at most 3000 characters, then stops', () => {
    const msg = message('order.created', {
      items: items(200, (index) => `${index + 1} ${'y'.repeat(1000)}`),
    });
    const texts = sectionTexts(msg);
    // 9 lines of 300 characters fit a section; 5 sections hold 45 of the 200 items.
    expect(texts).toHaveLength(SLACK_LIMITS.itemSections + 1);
    expect(itemLines(msg)).toHaveLength(45);
    expect(texts.at(-1)).toBe('_…and 155 more items_');
    expectWithinSlackLimits(msg);
  });

  it('stays inside every limit for an order that is large in every way at once', () => {
    const huge = 'Z&<>'.repeat(2000);
    const msg = message('order.status_changed', {
      reference: huge,
      establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: huge },
      customer: { uuid: '00000000-0000-4000-9000-000000000999', full_name: huge, class: huge, parent: null },
      items: items(500, () => huge),
    });
    expectWithinSlackLimits(msg);
    // Cutting never leaves half an escape in mrkdwn; the header is plain_text, which Slack does not parse.
    const mrkdwn = [msg.text, ...msg.blocks.slice(1).flatMap(allTexts)];
    for (const text of mrkdwn) expect(text).not.toMatch(/&(?!amp;|lt;|gt;)|[<>]/);
  });
});

describe('formatSlackMessage escaping', () => {
  it('escapes &, < and > in customer, establishment and item names', () => {
    const msg = message('order.created', {
      establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Bar & Grill' },
      customer: {
        uuid: '00000000-0000-4000-9000-000000000999',
        full_name: '<!channel> Ana',
        class: '3<B>',
        parent: null,
      },
      items: [makeOrderItem({ name: 'Fish & <chips>', quantity: 1 })],
    });
    expect(fields(msg)).toContain('*Establishment*\nBar &amp; Grill');
    expect(fields(msg)).toContain('*Customer*\n&lt;!channel&gt; Ana (3&lt;B&gt;)');
    expect(itemLines(msg)).toEqual(['1 × Fish &amp; &lt;chips&gt;']);
    expect(msg.text).toContain('&lt;!channel&gt; Ana');
    expect(JSON.stringify(msg)).not.toContain('<!channel>');
  });

  it('never cuts inside an escape sequence', () => {
    expect(fitMrkdwn('&&&&', 7)).toBe('&amp;…');
    expect(fitMrkdwn('a&b', 6)).toBe('a…');
    expect(fitMrkdwn('a&b', 7)).toBe('a&amp;b');
    expect(escapeMrkdwn('a < b > c & d')).toBe('a &lt; b &gt; c &amp; d');
  });

  it('never cuts an emoji in half', () => {
    expect(fitPlain('🍕🍕🍕', 4)).toBe('🍕…');
    expect(fitPlain('short', 5)).toBe('short');
  });
});

describe('formatSlackMessage privacy and context', () => {
  it('prints no parent e-mail or phone, even from an event that carries them', () => {
    const event = makeOrderEvent({ type: 'order.created' });
    expect(event.data.order.customer.parent?.email).toBe('parent@example.test');
    for (const msg of [formatSlackMessage(event), formatSlackMessage(eventForSubscriber(event, false))]) {
      const json = JSON.stringify(msg);
      expect(json).not.toContain('parent@example.test');
      expect(json).not.toContain('+351 000 000 000');
    }
  });

  it('names the organization, the status move and its time on the organization’s clock in a context line', () => {
    const event: OrderEvent = makeOrderEvent({ type: 'order.canceled' });
    const context = formatSlackMessage(event).blocks.at(-1);
    expect(context).toEqual({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: 'North School · Status: pending → canceled · Canceled at 09:30, Thu 5 Mar' },
      ],
    });
  });

  it('names only the organization for a new order, which has nothing to compare with', () => {
    const context = message('order.created').blocks.at(-1);
    expect(context).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: 'North School' }] });
  });
});

const SIDE_COUNTER = { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Side Counter' };
const ALWAYS_SENT = () => true;

describe('formatSlackMessage after closing', () => {
  it('puts the warning first in the header and explains it right under it', () => {
    const msg = formatSlackMessage(
      makeOrderEvent({ type: 'order.canceled', order: { reference: 'R-1042' }, summarySent: ALWAYS_SENT }),
    );
    expect(header(msg)).toBe('⚠️ after closing · ❌ Canceled R-1042');
    expect(msg.blocks[1]).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: '⚠️ after closing: the prep summary was already sent, and this change is not in it',
        },
      ],
    });
    expect(msg.text).toMatch(/^⚠️ after closing · ❌ Canceled R-1042 — /);
  });

  it('says nothing of closing for an event in time', () => {
    const msg = message('order.canceled', { reference: 'R-1042' });
    expect(JSON.stringify(msg)).not.toContain('after closing');
  });

  it('keeps the warning and the transition when a 5000-character reference is cut', () => {
    const msg = formatSlackMessage(
      makeOrderEvent({
        type: 'order.created',
        order: { reference: 'R'.repeat(5000) },
        summarySent: ALWAYS_SENT,
      }),
    );
    expect(header(msg)).toMatch(/^⚠️ after closing · 🆕 New order R+…$/);
    expectWithinSlackLimits(msg);
  });
});

describe('formatSlackMessage for a rescheduled order', () => {
  it('shows where it moved, by day and establishment name, in full print above the order', () => {
    const event = makeOrderEvent({
      type: 'order.rescheduled',
      order: {
        reference: 'NS-1031',
        pickup_at: '2026-11-25',
        establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000001', name: 'Main Canteen' },
      },
      before: { pickup_at: '2026-11-24', establishment: SIDE_COUNTER },
    });
    const named = {
      ...event,
      data: {
        ...event.data,
        changes: event.data.changes.map((change) =>
          change.field === 'establishment' ? { ...change, from_name: 'Side Counter' } : change,
        ),
      },
    };
    const msg = formatSlackMessage(named);
    expect(header(msg)).toBe('📅 Rescheduled NS-1031');
    expect(sectionTexts(msg)[0]).toBe(
      '*Pickup date:* Tue 24 Nov → Wed 25 Nov\n*Establishment:* Side Counter → Main Canteen',
    );
    // Not repeated in the small print.
    expect(msg.blocks.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'North School' }],
    });
    expectWithinSlackLimits(msg);
  });

  it('says "another establishment" for the one it left when the event does not name it', () => {
    const event = makeOrderEvent({
      type: 'order.rescheduled',
      order: { pickup_at: '2026-11-24' },
      before: { establishment: SIDE_COUNTER },
    });
    expect(sectionTexts(formatSlackMessage(event))[0]).toBe(
      '*Establishment:* another establishment → Main canteen',
    );
  });

  it('escapes establishment names in the move', () => {
    const event = makeOrderEvent({
      type: 'order.rescheduled',
      order: {
        pickup_at: '2026-11-24',
        establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000001', name: '<!here> & Co' },
      },
      before: { establishment: SIDE_COUNTER },
    });
    expect(sectionTexts(formatSlackMessage(event))[0]).toContain('&lt;!here&gt; &amp; Co');
  });

  it('flags a move into a closed day', () => {
    const msg = formatSlackMessage(
      makeOrderEvent({
        type: 'order.rescheduled',
        order: { reference: 'NS-1031' },
        summarySent: ALWAYS_SENT,
      }),
    );
    expect(header(msg)).toBe('⚠️ after closing · 📅 Rescheduled NS-1031');
  });

  it('names the move in the small print of a status event that moved the order too', () => {
    const event = makeOrderEvent({
      type: 'order.canceled',
      order: { pickup_at: '2026-11-25' },
      before: { pickup_at: '2026-11-24' },
    });
    expect(formatSlackMessage(event).blocks.at(-1)).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: 'North School · Status: pending → canceled · Canceled at 09:30, Thu 5 Mar · Pickup date: Tue 24 Nov → Wed 25 Nov',
        },
      ],
    });
  });
});

describe('formatSlackMessage for the send-test sample', () => {
  const sample = sampleEvent({
    type: 'order.created',
    organization: { id: 'org', name: 'North School' },
    source: 'https://meals.example.org/api/v1/admin/organizations/org',
    now: Date.parse('2026-11-23T10:00:00Z'),
    pickupDate: '2026-11-23',
    nonce: '4f2a9c1e-0b7d-4c3e-9a8b-1c2d3e4f5a6b',
  });

  it('says TEST in the header, the fallback text and a notice right under the header', () => {
    const msg = formatSlackMessage(sample);
    expect(header(msg)).toBe('🧪 TEST · 🆕 New order TEST-4F2A');
    expect(msg.text).toMatch(/^🧪 TEST · 🆕 New order TEST-4F2A — /);
    expect(msg.blocks[1]).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: '*TEST* sent by `meal-notifier send-test` to try this channel: not a real order, nothing to prepare.',
        },
      ],
    });
  });

  it('keeps the marked header within Slack’s 150 characters', () => {
    const long = {
      ...sample,
      data: { ...sample.data, order: { ...sample.data.order, reference: 'R'.repeat(500) } },
    };
    const text = header(formatSlackMessage(long));
    expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    expect(text.startsWith('🧪 TEST · 🆕 New order R')).toBe(true);
  });
});
