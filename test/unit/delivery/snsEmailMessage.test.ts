import { describe, expect, it } from 'vitest';
import { formatEmail } from '../../../shared/delivery/email/emailMessage.js';
import {
  SNS_SUBJECT_MAX_LENGTH,
  snsMessageBody,
  snsSubject,
} from '../../../shared/delivery/email/snsEmailMessage.js';
import { defaultHighlightWords } from '../../../shared/delivery/highlightWordsOf.js';
import { ORDER_EVENT_TYPES, OrderEventSchema } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

/** What SNS accepts as a Subject: printable ASCII, not starting with a space, under 100 characters. */
const SNS_SUBJECT = /^[!-~][ -~]{0,98}$/;

function establishment(name: string) {
  return { establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000003', name } };
}

describe('snsMessageBody', () => {
  it('is a JSON object of string values keyed by protocol, as MessageStructure=json requires', () => {
    const body = JSON.parse(snsMessageBody(makeOrderEvent(), defaultHighlightWords)) as Record<
      string,
      unknown
    >;
    expect(Object.keys(body).sort()).toEqual(['default', 'email']);
    expect(typeof body.default).toBe('string');
    expect(typeof body.email).toBe('string');
  });

  it('carries the CloudEvent as the default message, for the SQS queues', () => {
    const event = makeOrderEvent({ type: 'order.canceled' });
    const body = JSON.parse(snsMessageBody(event, defaultHighlightWords)) as { default: string };
    const delivered = OrderEventSchema.parse(JSON.parse(body.default));
    expect(delivered).toEqual(event);
  });

  it('carries the text e-mail, subject line first, for the e-mail subscriptions', () => {
    const event = makeOrderEvent({ type: 'order.completed' });
    const { email } = JSON.parse(snsMessageBody(event, defaultHighlightWords)) as { email: string };
    const { subject, text } = formatEmail(eventForSubscriber(event, false));
    expect(email).toBe(`${subject}\n\n${text}`);
    expect(email.split('\n')[0]).toMatch(/^Order ORD-\d+ completed — Main canteen, pickup Thu 5 Mar$/);
    expect(email).toContain('Items:\n  1 × Vegetable soup\n');
    expect(email).not.toMatch(/<html|<table/i);
  });

  it('never puts parent e-mail or phone in the e-mail body, which every e-mail subscriber shares', () => {
    const event = makeOrderEvent();
    expect(event.data.order.customer.parent?.email).toBe('parent@example.test');
    const { email } = JSON.parse(snsMessageBody(event, defaultHighlightWords)) as { email: string };
    expect(email).toContain('Rui Silva');
    expect(email).not.toContain('parent@example.test');
    expect(email).not.toContain('+351 000 000 000');
  });
});

describe('snsSubject', () => {
  it.each(ORDER_EVENT_TYPES)('gives an SNS-safe subject for an %s event', (type) => {
    expect(snsSubject(makeOrderEvent({ type }))).toMatch(SNS_SUBJECT);
  });

  it('spells the dash of the e-mail subject in ASCII', () => {
    const event = makeOrderEvent({
      type: 'order.canceled',
      order: { reference: 'R-1042', pickup_at: '2026-11-23', ...establishment('Canteen 2') },
    });
    expect(snsSubject(event)).toBe('Order R-1042 canceled - Canteen 2, pickup Mon 23 Nov');
  });

  it('transliterates accented names and marks what has no ASCII spelling', () => {
    const event = makeOrderEvent({
      order: { reference: 'R-7', pickup_at: '2026-11-23', ...establishment('Cantina São João “Œste” 食堂') },
    });
    expect(snsSubject(event)).toBe('New order R-7 - Cantina Sao Joao "OEste" ?, pickup Mon 23 Nov');
  });

  it('removes line breaks and control characters', () => {
    const event = makeOrderEvent({ order: { reference: 'R-8\r\n\tX\u0007', ...establishment('A\nB') } });
    const subject = snsSubject(event);
    expect(subject).toMatch(SNS_SUBJECT);
    expect(subject).toBe('New order R-8 X - A B, pickup Thu 5 Mar');
  });

  it('cuts a long subject to fewer than 100 characters, marking the cut', () => {
    const event = makeOrderEvent({ order: establishment(`Canteen ${'é'.repeat(200)}`) });
    const subject = snsSubject(event);
    expect(subject).toHaveLength(SNS_SUBJECT_MAX_LENGTH);
    expect(SNS_SUBJECT_MAX_LENGTH).toBeLessThan(100);
    expect(subject).toMatch(SNS_SUBJECT);
    expect(subject).toMatch(/^New order ORD-\d+ - Canteen e+\.\.\.$/);
  });

  it('leaves a subject that already fits as it is', () => {
    const event = makeOrderEvent({ order: { reference: 'R-1', ...establishment('Main canteen') } });
    expect(snsSubject(event)).toBe('New order R-1 - Main canteen, pickup Thu 5 Mar');
  });
});
