// Pins the e-mail of a prep_changed: its subject, the text part's aligned tables (was and now, then the
// orders behind them), the HTML part, a notes-only change, what the event itself left out, hostile names
// (one line in the text and the subject, escaped in the HTML), and the SNS e-mail body and subject.
import { describe, expect, it } from 'vitest';
import { emailSubject, formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import { snsMessageBody, snsSubject } from '../../../shared/delivery/email/snsEmailMessage.js';
import { defaultHighlightWords } from '../../../shared/delivery/highlightWordsOf.js';
import type { PrepChangedEvent } from '../../../shared/events/prepChangedEvent.js';
import { orderUuid } from '../../support/orderFactory.js';
import { makePrepChanged } from '../../support/prepChangedFixtures.js';
import { MAIN_CANTEEN } from '../../support/prepSummaryFixtures.js';

const HOSTILE = 'Tom & "Jerry" <script>alert(1)</script>\r\nBcc: x@evil.test\u0000\u2028';

describe('the e-mail of a prep_changed', () => {
  it('has a subject naming the kitchen, the day and the summary it amends', () => {
    expect(emailSubject(makePrepChanged())).toBe(
      'Prep changes: Main Canteen, Thu 26 Nov — since the 11:00 summary',
    );
  });

  it('lays the deltas and the orders behind them, by reference only, out as aligned tables in the text part', () => {
    const event = makePrepChanged();
    expect(formatEmail(event).text).toBe(
      [
        'Organization:      North School',
        'Establishment:     Main Canteen',
        'Pickup date:       Thu 26 Nov (2026-11-26)',
        'Summary closed at: 11:00, Thu 26 Nov',
        `Summary:           ${event.data.summary_id}`,
        '',
        'Quantities:',
        '  Item            Was  Now',
        '  Lasagne          42   40',
        '  Vegetable soup   12   13',
        '',
        'Orders behind them:',
        '  Order',
        '  R-1042',
        '  R-1043',
        '',
        `Event establishment.prep_changed ${event.id}, recorded 2026-11-26T11:20:00.000Z.`,
        '',
      ].join('\n'),
    );
  });

  it('shows the same tables as <table>s in the HTML part', () => {
    const { html } = formatEmail(makePrepChanged());
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('Prep changes: Main Canteen, Thu 26 Nov — since the 11:00 summary</h1>');
    expect(html).toContain('>Quantities</h2>');
    expect(html).toContain(
      '>Lasagne</td><td style="padding:4px 12px 4px 0;vertical-align:top;text-align:right">42</td>',
    );
    expect(html).toContain('>Orders behind them</h2>');
    expect(html).toContain('>R-1043</td></tr>');
    // What each order did is its own message's to say: a late change is said once.
    expect(html).not.toContain('changed (notes)');
  });

  it('says so when only notes changed', () => {
    const { text, html } = formatEmail(
      makePrepChanged({
        items: [],
        orders: [{ uuid: orderUuid(1), reference: 'R-1', change: 'updated', notes_changed: true }],
      }),
    );
    expect(text).toContain('Quantities:\n  No quantity changed: only notes.\n');
    expect(html).toContain('<p>No quantity changed: only notes.</p>');
  });

  it('counts what the event itself left out, to fit', () => {
    const event = makePrepChanged();
    const cut: PrepChangedEvent = { ...event, data: { ...event.data, items_omitted: 3, orders_omitted: 1 } };
    const { text, html } = formatEmail(cut);
    expect(text).toContain('  Vegetable soup   12   13\n  …and 3 more items\n');
    expect(text).toContain('  R-1043\n  …and 1 more order\n');
    expect(html).toContain('<p>…and 3 more items</p>');
  });

  it('marks a sample as a test in the subject and first in both parts', () => {
    const event = makePrepChanged();
    const sample: PrepChangedEvent = { ...event, data: { ...event.data, test: true } };
    const { subject, text, html } = formatEmail(sample);
    expect(subject).toMatch(/^\[TEST\] Prep changes: /);
    expect(text.split('\n')[0]).toMatch(/^TEST: sent by meal-notifier send-test/);
    expect(html).toContain('TEST: sent by meal-notifier send-test');
  });

  it('keeps hostile names on one line in the subject and the text, and escapes them in the HTML', () => {
    const event = makePrepChanged({
      organization: { id: '0e9a0000-0000-4000-8000-00000000000a', name: HOSTILE },
      establishment: { ...MAIN_CANTEEN, name: HOSTILE },
      items: [{ sku: HOSTILE, name: HOSTILE, from: 1, to: 2 }],
      orders: [{ uuid: orderUuid(1), reference: HOSTILE, change: 'created' }],
    });
    const { subject, text, html } = formatEmail(event);
    expect(subject).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(subject).toBe(
      'Prep changes: Tom & "Jerry" <script>alert(1)</script> Bcc: x@evil.test, Thu 26 Nov — since the 11:00 summary',
    );
    for (const line of text.split('\n')) expect(line).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(text).toContain('Establishment:     Tom & "Jerry" <script>alert(1)</script> Bcc: x@evil.test\n');
    expect(html).not.toContain('<script>');
    expect(html).toContain(
      'Tom &amp; &quot;Jerry&quot; &lt;script&gt;alert(1)&lt;/script&gt; Bcc: x@evil.test',
    );
  });

  it('gets an ASCII subject SNS accepts, starting with a letter', () => {
    const subject = snsSubject(
      makePrepChanged({ establishment: { ...MAIN_CANTEEN, name: 'Cantina São João' } }),
    );
    expect(subject).toBe('Prep changes: Cantina Sao Joao, Thu 26 Nov - since the 11:00 summary');
    expect(subject).toMatch(/^[A-Za-z][\x20-\x7e]{0,98}$/);
  });

  it('carries the CloudEvent for the queues and the text e-mail for e-mail subscriptions', () => {
    const event = makePrepChanged();
    const body = JSON.parse(snsMessageBody(event, defaultHighlightWords)) as {
      default: string;
      email: string;
    };
    expect(JSON.parse(body.default)).toEqual(event);
    expect(body.email).toBe(`${emailSubject(event)}\n\n${formatEmail(event).text}`);
  });
});
