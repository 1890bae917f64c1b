import { describe, expect, it } from 'vitest';
import { formatDeliveryReportLine } from '../../../cli/output/deliveryReportLine.js';
import { detectedEventRecord } from '../../../cli/output/detectedEventLine.js';
import type { DeliveryReport } from '../../../shared/delivery/outboxDelivery.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem } from '../../support/orderFactory.js';
import { makePrepChanged } from '../../support/prepChangedFixtures.js';

const NOW = Date.parse('2026-03-05T10:00:02.000Z');

function report(overrides: Partial<DeliveryReport>): DeliveryReport {
  return {
    subscriberId: 'office',
    eventId: 'e-1',
    eventType: 'order.created',
    reference: 'NS-1064',
    outcome: { kind: 'delivered' },
    attempts: 1,
    state: 'delivered',
    eventTime: '2026-03-05T10:00:01.880Z',
    ...overrides,
  };
}

const failure = (reason: string): DeliveryReport['outcome'] => ({ kind: 'retry', reason });

describe('the runner’s line per delivery attempt, in the demo’s columns', () => {
  it('says what became of each attempt, to whom', () => {
    expect(formatDeliveryReportLine(report({}), NOW)).toBe(
      'delivered  created    NS-1064  to office  120 ms after detection',
    );
    expect(
      formatDeliveryReportLine(
        report({ state: 'queued', outcome: failure('answered 500'), nextAttemptAt: NOW + 5_000 }),
        NOW,
      ),
    ).toBe('retrying   created    NS-1064  to office  attempt 1 failed, next in 5 s: answered 500');
    expect(
      formatDeliveryReportLine(
        report({ state: 'dead', attempts: 8, eventType: 'order.canceled', outcome: failure('answered 500') }),
        NOW,
      ),
    ).toBe('failed     canceled   NS-1064  to office  dead letter after 8 attempts: answered 500');
    expect(
      formatDeliveryReportLine(
        report({ state: 'subscriber_disabled', outcome: failure('answered 410') }),
        NOW,
      ),
    ).toBe(
      'failed     created    NS-1064  to office  subscriber disabled, nothing more is sent to it: answered 410',
    );
  });
});

describe('the runner’s line per event', () => {
  it('names the order, its establishment and organization; its record names no customer', () => {
    const event = makeOrderEvent({ order: { reference: 'NS-1031' } });
    const record = detectedEventRecord(event);
    const { establishment } = event.data.order;
    expect(record.message).toBe(
      `detected   created    NS-1031  ${establishment.name.padEnd(18)}  ${event.data.organization.name}`,
    );
    expect(record).toMatchObject({ level: 'info', kind: 'event' });
    expect(record.fields).toEqual({
      eventId: event.id,
      eventType: 'order.created',
      reference: 'NS-1031',
      subject: event.subject,
      establishment: establishment.name,
      organization: event.data.organization.name,
      organizationId: event.data.organization.id,
    });
    expect(JSON.stringify(record)).not.toContain(event.data.order.customer.name);
  });

  it('names a prep_changed by its establishment, what it changes and for which day', () => {
    const event = makePrepChanged();
    const record = detectedEventRecord(event);
    expect(record.message).toBe(
      'detected   prep_changed  Main Canteen  Thu 26 Nov: 2 orders · Lasagne: 42 → 40 · Vegetable soup: 12 → 13  North School',
    );
    expect(record.fields).toEqual({
      eventId: event.id,
      eventType: 'establishment.prep_changed',
      reference: 'Main Canteen 2026-11-26',
      subject: event.subject,
      establishment: 'Main Canteen',
      organization: 'North School',
      organizationId: event.data.organization.id,
    });
  });
});

describe('the runner’s line for an update', () => {
  const LINE = '7e0c0000-0000-4000-8000-00000000a001';
  const lasagne = (quantity: number, notes: string | null = null) =>
    makeOrderItem({ uuid: LINE, sku: 'LAS', name: 'Lasagne', quantity, notes });
  const updated = (note: string | null, lineNote: string | null = null) =>
    makeOrderEvent({
      type: 'order.updated',
      order: { reference: 'NS-12', notes: note, items: [lasagne(2, lineNote)] },
      before: { notes: null, items: [lasagne(1)] },
    });

  it('says what changed on one line, a new note that names an allergy marked', () => {
    const event = updated('Allergic to eggs');
    const { establishment } = event.data.order;
    expect(detectedEventRecord(event).message).toBe(
      `detected   updated    NS-12    ${establishment.name.padEnd(18)}  Lasagne 1 → 2; 🚨 notes: Allergic to eggs  ${event.data.organization.name}`,
    );
  });

  it("marks with the organization's words, and keeps a long or multi-line note short", () => {
    const long = `Picked up by\ngrandma ${'x'.repeat(200)}`;
    const message = detectedEventRecord(updated(long), undefined, ['grandma']).message;
    expect(message).toContain('Lasagne 1 → 2; 🚨 notes: Picked up by grandma xxx');
    expect(message).toMatch(/x… {2}/);
    expect(message.split('\n')).toHaveLength(1);
    expect(detectedEventRecord(updated('Allergic to eggs'), undefined, []).message).toContain(
      'Lasagne 1 → 2; notes: Allergic to eggs',
    );
  });

  it('says a note was removed, and names the item a note is on', () => {
    const removed = makeOrderEvent({
      type: 'order.updated',
      order: { reference: 'NS-12', notes: null, items: [lasagne(1, 'no cheese')] },
      before: { notes: 'Extra bread', items: [lasagne(1)] },
    });
    expect(detectedEventRecord(removed).message).toContain('notes removed; Lasagne notes: no cheese');
  });

  it('shows a new order’s allergy or diet note, flagged, and keeps other notes for Slack and e-mail', () => {
    const created = makeOrderEvent({
      order: { reference: 'NS-13', notes: 'Allergic to peanuts', items: [lasagne(1, 'Vegetarian, please')] },
    });
    const message = detectedEventRecord(created).message;
    expect(message).toContain('🚨 Allergic to peanuts +1 more');
    const plainNote = makeOrderEvent({ order: { reference: 'NS-14', notes: 'Pick up at noon' } });
    expect(detectedEventRecord(plainNote).message).not.toContain('Pick up');
    expect(detectedEventRecord(created, undefined, []).message).not.toContain('🚨');
  });
});
