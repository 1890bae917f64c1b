import { describe, expect, it } from 'vitest';
import { emailSubject, formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import type { OrderEventType as EventType } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { sampleEvent } from '../../../shared/events/sampleEvent.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem, money } from '../../support/orderFactory.js';

const ORDER = {
  reference: 'R-1042',
  pickup_at: '2026-11-23',
  establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Canteen 2' },
};

describe('emailSubject', () => {
  it.each<[EventType, string]>([
    ['order.created', 'New order R-1042 — Canteen 2, pickup Mon 23 Nov'],
    ['order.completed', 'Order R-1042 completed — Canteen 2, pickup Mon 23 Nov'],
    ['order.canceled', 'Order R-1042 canceled — Canteen 2, pickup Mon 23 Nov'],
    ['order.archived', 'Order R-1042 archived — Canteen 2, pickup Mon 23 Nov'],
    ['order.status_changed', 'Order R-1042 is now preparing — Canteen 2, pickup Mon 23 Nov'],
    ['order.rescheduled', 'Order R-1042 rescheduled — Canteen 2, pickup Mon 23 Nov'],
  ])('names the transition of an %s event', (type, subject) => {
    expect(emailSubject(makeOrderEvent({ type, order: ORDER }))).toBe(subject);
  });

  it('turns line breaks from the data into spaces, so no header can be injected', () => {
    const event = makeOrderEvent({
      type: 'order.canceled',
      order: {
        reference: 'R-1\r\nBcc: victim@example.test',
        establishment: { uuid: ORDER.establishment.uuid, name: 'Canteen\n2\u2028' },
      },
    });
    const subject = formatEmail(event).subject;
    expect(subject).not.toMatch(/[\r\n\u2028]/);
    expect(subject).toBe('Order R-1 Bcc: victim@example.test canceled — Canteen 2, pickup Thu 5 Mar');
  });
});

describe('formatEmail', () => {
  it('lists every field of the order in the text part', () => {
    const event = makeOrderEvent({
      type: 'order.canceled',
      order: {
        ...ORDER,
        total: money(1250),
        payment_method_type: { label: 'Credit', value: 'credit' },
        items: [
          makeOrderItem({ name: 'Vegetable soup', quantity: 2 }),
          makeOrderItem({ name: 'Apple', quantity: 1 }),
        ],
      },
    });
    const { text } = formatEmail(event);
    expect(text).toContain('Reference:      R-1042\n');
    expect(text).toContain('Status:         canceled\n');
    expect(text).toContain('Establishment:  Canteen 2\n');
    expect(text).toContain('Pickup date:    Mon 23 Nov (2026-11-23)\n');
    expect(text).toContain('Customer:       Ana Silva (3B)\n');
    expect(text).toContain('Total:          €12.50\n');
    expect(text).toContain('Payment method: Credit\n');
    expect(text).toContain('Organization:   North School\n');
    expect(text).toContain('Items:\n  2 × Vegetable soup\n  1 × Apple\n');
    expect(text).toContain('Changes:\n  Status: pending → canceled\n  Canceled at 09:30, Thu 5 Mar\n');
    expect(text).toContain(event.id);
  });

  it('shows the same fields as a table in the HTML part', () => {
    const { html } = formatEmail(makeOrderEvent({ type: 'order.completed', order: ORDER }));
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<h1 style="font-size:18px;margin:0 0 12px">Order R-1042 completed — Canteen 2');
    const rows: Array<[string, string]> = [
      ['Reference', 'R-1042'],
      ['Status', 'completed'],
      ['Establishment', 'Canteen 2'],
      ['Pickup date', 'Mon 23 Nov (2026-11-23)'],
      ['Customer', 'Ana Silva (3B)'],
      ['Total', '€3.50'],
      ['Payment method', 'Card'],
      ['Organization', 'North School'],
    ];
    for (const [label, value] of rows) {
      expect(html).toMatch(new RegExp(`>${label}</th><td[^>]*>${value.replace(/[()]/g, '\\$&')}</td>`));
    }
    expect(html).toContain('<li>1 × Vegetable soup</li>');
    expect(html).toContain('<li>Status: pending → completed</li>');
    expect(html).toContain('<li>Completed at 09:30, Thu 5 Mar</li>');
  });

  it('styles the HTML inline only, without style sheets or scripts', () => {
    const { html } = formatEmail(makeOrderEvent());
    expect(html).not.toMatch(/<style|<script|<link/i);
    expect(html).toContain('style="');
  });

  it('escapes every user-provided string in the HTML part', () => {
    const event = makeOrderEvent({
      order: {
        reference: 'R-<1>',
        establishment: { uuid: ORDER.establishment.uuid, name: 'Tom & "Jerry\'s"' },
        customer: {
          uuid: '00000000-0000-4000-9000-0000000000ff',
          full_name: '<script>alert(1)</script>',
          class: '<b>3B</b>',
          parent: null,
        },
        items: [makeOrderItem({ name: '<img src=x onerror=alert(1)>' })],
      },
    });
    const { html, text } = formatEmail(event);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; (&lt;b&gt;3B&lt;/b&gt;)');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Tom &amp; &quot;Jerry&#39;s&quot;');
    expect(html).toContain('R-&lt;1&gt;');
    // The text part is plain text: shown as written.
    expect(text).toContain('Customer:       <script>alert(1)</script> (<b>3B</b>)');
  });

  it('shows parent e-mail and phone when the event carries them (the subscriber opted in)', () => {
    const { text, html } = formatEmail(eventForSubscriber(makeOrderEvent(), true));
    expect(text).toContain('Parent:         Rui Silva\n');
    expect(text).toContain('Parent e-mail:  parent@example.test\n');
    expect(text).toContain('Parent phone:   +351 000 000 000\n');
    expect(html).toContain('parent@example.test');
    expect(html).toContain('+351 000 000 000');
  });

  it('leaves parent e-mail and phone out when the event was redacted for the subscriber', () => {
    const { text, html } = formatEmail(eventForSubscriber(makeOrderEvent(), false));
    expect(text).toContain('Parent:         Rui Silva\n');
    for (const body of [text, html]) {
      expect(body).not.toContain('parent@example.test');
      expect(body).not.toContain('+351');
      expect(body).not.toContain('Parent e-mail');
      expect(body).not.toContain('Parent phone');
    }
  });

  it('leaves out a null parent e-mail and phone rather than printing an empty row', () => {
    const event = makeOrderEvent();
    const parent = event.data.order.customer.parent;
    if (!parent) throw new Error('fixture order has a parent');
    parent.email = null;
    parent.phone = null;
    expect(formatEmail(event).text).not.toMatch(/Parent (e-mail|phone)/);
  });

  it('shows a customer without class and without parent by name alone', () => {
    const { text } = formatEmail(
      makeOrderEvent({
        order: {
          customer: {
            uuid: '00000000-0000-4000-9000-0000000000fe',
            full_name: 'Ana Silva',
            class: null,
            parent: null,
          },
        },
      }),
    );
    expect(text).toContain('Customer:       Ana Silva\n');
    expect(text).not.toContain('Parent');
  });

  it('lists no changes for a new order, whose fields all appear from nothing', () => {
    const { text, html } = formatEmail(makeOrderEvent({ type: 'order.created' }));
    expect(text).not.toContain('Changes:');
    expect(html).not.toContain('>Changes<');
  });

  it('names the establishment an order moved to instead of its uuid', () => {
    const event = makeOrderEvent({ type: 'order.canceled', order: ORDER });
    event.data.changes.push({
      field: 'establishment',
      from: 'e5a1b2c3-0000-4000-8000-000000000001',
      to: ORDER.establishment.uuid,
    });
    expect(formatEmail(event).text).toContain(
      'Establishment: e5a1b2c3-0000-4000-8000-000000000001 → Canteen 2\n',
    );
  });

  it('keeps every field value on one line in the text part', () => {
    const event = makeOrderEvent({
      order: { items: [makeOrderItem({ name: 'Soup\r\nwith\nbread', quantity: 3 })] },
    });
    expect(formatEmail(event).text).toContain('  3 × Soup with bread\n');
  });
});

describe('formatEmail for the send-test sample', () => {
  const sample = sampleEvent({
    type: 'order.canceled',
    organization: { id: 'org', name: 'North School' },
    source: 'https://meals.example.org/api/v1/admin/organizations/org',
    now: Date.parse('2026-11-23T10:00:00Z'),
    pickupDate: '2026-11-23',
    nonce: '4f2a9c1e-0b7d-4c3e-9a8b-1c2d3e4f5a6b',
  });

  it('says TEST in the subject, and first thing in the text and HTML parts', () => {
    const { subject, text, html } = formatEmail(sample);
    expect(subject).toBe('[TEST] Order TEST-4F2A canceled — Sample establishment, pickup Mon 23 Nov');
    expect(text.split('\n')[0]).toBe(
      'TEST: sent by meal-notifier send-test to try this address. It is not a real order.',
    );
    expect(html.indexOf('TEST: sent by meal-notifier send-test')).toBeLessThan(html.indexOf('<table'));
  });

  it('says nothing of a test for a real event', () => {
    const { subject, text } = formatEmail(makeOrderEvent({ type: 'order.canceled', order: ORDER }));
    expect(subject).not.toContain('TEST');
    expect(text).not.toContain('send-test');
  });
});

describe('formatEmail after closing', () => {
  const late = (type: EventType) => makeOrderEvent({ type, order: ORDER, summarySent: () => true });

  it('says so first in the subject, in words any mail client shows', () => {
    expect(emailSubject(late('order.created'))).toBe(
      'After closing: New order R-1042 — Canteen 2, pickup Mon 23 Nov',
    );
    expect(emailSubject(late('order.canceled'))).toBe(
      'After closing: Order R-1042 canceled — Canteen 2, pickup Mon 23 Nov',
    );
  });

  it('opens both parts with what it means', () => {
    const { text, html } = formatEmail(late('order.canceled'));
    expect(text).toMatch(
      /^After closing: the prep summary for this day was already sent, and this change is not in it\.\n\nReference: {6}R-1042\n/,
    );
    expect(html).toContain(
      '<p style="background:#fff4e5;border-left:4px solid #e8a33d;padding:8px 12px;margin:0 0 12px">After closing: the prep summary for this day was already sent, and this change is not in it.</p>',
    );
  });

  it('says nothing of closing for an event in time', () => {
    const { subject, text, html } = formatEmail(makeOrderEvent({ type: 'order.canceled', order: ORDER }));
    expect(`${subject}${text}${html}`).not.toMatch(/after closing/i);
  });
});

describe('formatEmail for a rescheduled order', () => {
  it('lists where it moved, with establishment names where the event knows them', () => {
    const event = makeOrderEvent({
      type: 'order.rescheduled',
      order: { ...ORDER, pickup_at: '2026-11-24' },
      before: {
        pickup_at: '2026-11-23',
        establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000009', name: 'Side' },
      },
    });
    const named = {
      ...event,
      data: {
        ...event.data,
        changes: event.data.changes.map((change) =>
          change.field === 'establishment' ? { ...change, from_name: 'Side <Counter>' } : change,
        ),
      },
    };
    const { subject, text, html } = formatEmail(named);
    expect(subject).toBe('Order R-1042 rescheduled — Canteen 2, pickup Tue 24 Nov');
    expect(text).toContain(
      'Changes:\n  Pickup date: Mon 23 Nov → Tue 24 Nov\n  Establishment: Side <Counter> → Canteen 2\n',
    );
    expect(html).toContain('<li>Establishment: Side &lt;Counter&gt; → Canteen 2</li>');
  });

  it('shows the uuid of the establishment it left when the event does not name it', () => {
    const event = makeOrderEvent({
      type: 'order.rescheduled',
      order: ORDER,
      before: { establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000009', name: 'Side' } },
    });
    expect(formatEmail(event).text).toContain(
      '  Establishment: e5a1b2c3-0000-4000-8000-000000000009 → Canteen 2\n',
    );
  });
});
