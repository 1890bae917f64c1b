import { describe, expect, it } from 'vitest';
import { ORDER_EVENT_TYPES as EVENT_TYPES, OrderEventSchema } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { PrepChangedEventSchema } from '../../../shared/events/prepChangedEvent.js';
import { PrepSummaryEventSchema } from '../../../shared/events/prepSummaryEvent.js';
import {
  isSampleEvent,
  sampleEvent,
  samplePrepChanged,
  samplePrepSummary,
} from '../../../shared/events/sampleEvent.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

const NOW = Date.parse('2026-11-23T10:15:03.000Z');
const NONCE = '4f2a9c1e-0b7d-4c3e-9a8b-1c2d3e4f5a6b';

function sample(type: (typeof EVENT_TYPES)[number] = 'order.created') {
  return sampleEvent({
    type,
    organization: { id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', name: 'North School' },
    source: 'https://meals.example.org/api/v1/admin/organizations/3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
    now: NOW,
    pickupDate: '2026-11-23',
    nonce: NONCE,
  });
}

describe('sampleEvent', () => {
  it.each(EVENT_TYPES)('makes a %s that the event contract accepts, its test marker kept', (type) => {
    const event = sample(type);
    const parsed = OrderEventSchema.parse(JSON.parse(JSON.stringify(event)));
    expect(parsed).toEqual(event);
    expect(parsed.data.test).toBe(true);
    expect(parsed.type).toBe(type);
  });

  it('is marked as a test by its id, its data and its order reference', () => {
    const event = sample();
    expect(event.id).toBe(`test-${NONCE}`);
    expect(event.data.order.reference).toBe('TEST-4F2A');
    expect(isSampleEvent(event)).toBe(true);
    expect(event.time).toBe('2026-11-23T10:15:03.000Z');
  });

  it('lists the changes the diff engine lists for the same transition', () => {
    expect(sample('order.created').data.changes.map(({ field, from }) => [field, from])).toEqual([
      ['status', null],
      ['pickup_date', null],
      ['establishment', null],
    ]);
    expect(sample('order.canceled').data.changes).toEqual([
      { field: 'status', from: 'pending', to: 'canceled' },
      { field: 'canceled_at', from: null, to: '2026-11-23T10:15:03.000Z' },
    ]);
    expect(sample('order.canceled').data.order.status).toBe('canceled');
  });

  it('carries contact details, so a subscriber that opted out is shown them left out', () => {
    const redacted = eventForSubscriber(sample(), false);
    expect(sample().data.order.customer.parent?.email).toBeTruthy();
    expect(redacted.data.order.customer.parent).toEqual({
      uuid: '00000000-0000-4000-8000-000000000002',
      name: 'Sample Parent',
    });
    expect(isSampleEvent(redacted)).toBe(true);
  });

  it('never takes a real event for a sample', () => {
    expect(isSampleEvent(makeOrderEvent())).toBe(false);
    expect(makeOrderEvent().data).not.toHaveProperty('test');
  });

  it('makes a prep summary the contract accepts, marked as a test by its id and its data', () => {
    const event = samplePrepSummary({
      organization: { id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', name: 'North School' },
      source: 'https://meals.example.org/api/v1/admin/organizations/3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
      now: NOW,
      pickupDate: '2026-11-23',
      nonce: NONCE,
    });
    expect(PrepSummaryEventSchema.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
    expect(event.id).toBe(`test-${NONCE}`);
    expect(isSampleEvent(event)).toBe(true);
    expect(event.data.classes.reduce((sum, entry) => sum + entry.orders, 0)).toBe(event.data.orders);
  });

  it('makes a prep_changed the contract accepts, marked as a test by its id, its data and its summary’s id', () => {
    const event = samplePrepChanged({
      organization: { id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', name: 'North School' },
      source: 'https://meals.example.org/api/v1/admin/organizations/3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
      now: NOW,
      pickupDate: '2026-11-23',
      nonce: NONCE,
      establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000001', name: 'Main Canteen' },
    });
    expect(PrepChangedEventSchema.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
    expect(event.id).toBe(`test-${NONCE}`);
    expect(event.subject).toBe('e5a1b2c3-0000-4000-8000-000000000001');
    expect(event.data.summary_id).toMatch(/^test-/);
    expect(event.data.orders.every((order) => order.reference.startsWith('TEST-'))).toBe(true);
    expect(isSampleEvent(event)).toBe(true);
  });

  it("gives the sample prep summary notes, flagged with the organization's words, flagged first", () => {
    const input = {
      organization: { id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f', name: 'North School' },
      source: 'https://meals.example.org/api/v1/admin/organizations/3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
      now: NOW,
      pickupDate: '2026-11-23',
      nonce: NONCE,
    };
    const notes = samplePrepSummary(input).data.notes ?? [];
    expect(notes.map(({ note, flagged }) => [note, flagged])).toEqual([
      ['Allergic to peanuts: no nuts at all, please.', true],
      ['Cut in small pieces', false],
    ]);
    expect(notes[0]).toMatchObject({ class: '5B', item: { name: 'Sample meal' } });
    const own = samplePrepSummary({ ...input, highlightWords: ['pieces'] }).data.notes ?? [];
    expect(own.map(({ note, flagged }) => [note, flagged])).toEqual([
      ['Cut in small pieces', true],
      ['Allergic to peanuts: no nuts at all, please.', false],
    ]);
  });
});
