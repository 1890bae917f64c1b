// The pure rules of a catch-up: what is stale (by the API's own time of the change, else its detection),
// what one counts (types, establishments, orders after closing, flagged notes), its id, and how a newer one
// absorbs one still queued.
import { describe, expect, it } from 'vitest';
import { buildCatchUp, type CatchUpInput } from '../../../shared/events/buildCatchUp.js';
import { CATCH_UP_LIST_MAX, CatchUpEventSchema } from '../../../shared/events/catchUpEvent.js';
import { sampleEvent } from '../../../shared/events/sampleEvent.js';
import { isStale, isStaleAtDetection } from '../../../shared/events/staleness.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makeOrderItem } from '../../support/orderFactory.js';

const DETECTED_AT = '2026-03-05T10:00:00.000Z';
const detected = Date.parse(DETECTED_AT);
const MINUTE = 60_000;

describe('isStale', () => {
  const event = makeOrderEvent({ detectedAt: DETECTED_AT });

  it('is stale when its change happened more than the threshold before, by the API’s time', () => {
    expect(isStaleAtDetection(event, detected - 16 * MINUTE, 15 * MINUTE)).toBe(true);
    expect(isStaleAtDetection(event, detected - 15 * MINUTE, 15 * MINUTE)).toBe(false);
    expect(isStaleAtDetection(event, detected - MINUTE, 15 * MINUTE)).toBe(false);
  });

  it('dates a change the API does not by its detection, so it goes stale while it waits to be sent', () => {
    expect(isStaleAtDetection(event, undefined, 15 * MINUTE)).toBe(false);
    expect(isStale(event, undefined, detected + 14 * MINUTE, 15 * MINUTE)).toBe(false);
    expect(isStale(event, undefined, detected + 16 * MINUTE, 15 * MINUTE)).toBe(true);
    // Found in time, then held up on its way: stale by its own change, not its detection.
    expect(isStale(event, detected - 10 * MINUTE, detected + 6 * MINUTE, 15 * MINUTE)).toBe(true);
  });

  it('never makes a prep summary, a catch-up or a sample stale', () => {
    const catchUp = buildCatchUp(input([{ event, sourceTime: detected - 20 * MINUTE }]));
    expect(isStale(catchUp, 0, detected + 86_400_000, MINUTE)).toBe(false);
    const sample = sampleEvent({
      type: 'order.created',
      organization: { id: 'org', name: 'North School' },
      source: 'https://example.test/api/v1/admin/organizations/org',
      now: 0,
      pickupDate: '2026-03-05',
      nonce: '7f0b3a62-1e0b-4f0f-9a0e-4a1b2c3d4e5f',
    });
    expect(isStale(sample, 0, detected, MINUTE)).toBe(false);
  });
});

function input(events: CatchUpInput['events'], overrides: Partial<CatchUpInput> = {}): CatchUpInput {
  const first = events[0]?.event ?? makeOrderEvent();
  return {
    organization: { id: first.data.organization.id, name: first.data.organization.name },
    source: first.source,
    catchUpAfterMs: 15 * MINUTE,
    nowMs: detected,
    events,
    ...overrides,
  };
}

describe('buildCatchUp', () => {
  const created = makeOrderEvent({ detectedAt: DETECTED_AT });
  const canceled = makeOrderEvent({ type: 'order.canceled', detectedAt: DETECTED_AT });
  const elsewhere = makeOrderEvent({
    detectedAt: DETECTED_AT,
    order: { establishment: { uuid: 'C0FFEE00-1234-4ABC-9DEF-0123456789AB', name: 'Side Counter' } },
  });
  const late = makeOrderEvent({ detectedAt: DETECTED_AT, summarySent: () => true });
  const allergic = makeOrderEvent({
    detectedAt: DETECTED_AT,
    order: {
      notes: 'Severe peanut allergy',
      items: [
        makeOrderItem({ name: 'Lasagne', notes: 'no egg please' }),
        makeOrderItem({ notes: 'extra napkins' }),
      ],
    },
  });

  it('counts the events by type and by establishment, most first, and lists their ids', () => {
    const catchUp = buildCatchUp(
      input([
        { event: created, sourceTime: detected - 30 * MINUTE },
        { event: canceled, sourceTime: detected - 20 * MINUTE },
        { event: elsewhere },
      ]),
    );
    expect(CatchUpEventSchema.parse(catchUp)).toEqual(catchUp);
    expect(catchUp.data).toMatchObject({
      catch_up_after: 900,
      events: 3,
      event_ids: [created.id, canceled.id, elsewhere.id],
      by_type: [
        { name: 'order.created', count: 2 },
        { name: 'order.canceled', count: 1 },
      ],
      by_establishment: [
        { name: 'Main canteen', count: 2 },
        { name: 'Side Counter', count: 1 },
      ],
      types: ['order.canceled', 'order.created'],
      statuses: ['canceled', 'pending'],
      after_closing_count: 0,
      notes_count: 0,
    });
    // What a filter sees: lower-cased uuids, as the config writes them.
    expect(catchUp.data.establishments).toContain('c0ffee00-1234-4abc-9def-0123456789ab');
    // The span of the changes: the oldest by the API, the newest by its detection (the API did not date it).
    expect(catchUp.data.first_change_at).toBe(new Date(detected - 30 * MINUTE).toISOString());
    expect(catchUp.data.last_change_at).toBe(DETECTED_AT);
    expect(catchUp.data.found_late).toBe(2);
    expect(catchUp.subject).toBe(created.data.organization.id);
  });

  it('lists the orders changed after closing and the flagged notes, one line per order', () => {
    const catchUp = buildCatchUp(input([{ event: late }, { event: allergic }, { event: allergic }]));
    expect(catchUp.data.after_closing_count).toBe(1);
    expect(catchUp.data.after_closing).toEqual([
      expect.objectContaining({ reference: late.data.order.reference, type: 'order.created' }),
    ]);
    expect(catchUp.data.notes_count).toBe(1);
    expect(catchUp.data.notes).toEqual([
      expect.objectContaining({
        reference: allergic.data.order.reference,
        customer: 'Ana Silva (3B)',
        notes: ['Severe peanut allergy', 'Lasagne: no egg please'],
      }),
    ]);
  });

  it(`keeps the first ${CATCH_UP_LIST_MAX} of a long list and counts them all`, () => {
    const many = Array.from({ length: 30 }, () => ({
      event: makeOrderEvent({ detectedAt: DETECTED_AT, summarySent: () => true }),
    }));
    const catchUp = buildCatchUp(input(many));
    expect(catchUp.data.after_closing_count).toBe(30);
    expect(catchUp.data.after_closing).toHaveLength(CATCH_UP_LIST_MAX);
  });

  it('folds a long outage: 20,000 events counted, spanned, and their notes listed once per order', () => {
    // 500 orders with an allergy, each changed 40 times: each event's order found by its uuid, not searched for.
    const orders = Array.from({ length: 500 }, () =>
      makeOrderEvent({ detectedAt: DETECTED_AT, order: { notes: 'Severe peanut allergy' } }),
    );
    const events = Array.from({ length: 20_000 }, (_, index) => ({
      event: orders[index % orders.length] ?? created,
      sourceTime: detected - 20 * MINUTE - (index % 7_000) * 1_000,
    }));

    const catchUp = buildCatchUp(input(events));

    expect(catchUp.data.events).toBe(20_000);
    expect(catchUp.data.event_ids).toHaveLength(20_000);
    expect(catchUp.data.by_type).toEqual([{ name: 'order.created', count: 20_000 }]);
    expect(catchUp.data.first_change_at).toBe(new Date(detected - 20 * MINUTE - 6_999_000).toISOString());
    expect(catchUp.data.last_change_at).toBe(new Date(detected - 20 * MINUTE).toISOString());
    expect(catchUp.data.found_late).toBe(20_000);
    expect(catchUp.data.notes_count).toBe(500);
    expect(catchUp.data.notes.map((line) => line.order_uuid)).toEqual(
      orders.slice(0, CATCH_UP_LIST_MAX).map((event) => event.data.order.uuid),
    );
  });

  it('has one id for the same events in any order, and another for another threshold or subscriber', () => {
    const a = buildCatchUp(input([{ event: created }, { event: canceled }]));
    const b = buildCatchUp(input([{ event: canceled }, { event: created }], { nowMs: detected + 5_000 }));
    expect(b.id).toBe(a.id);
    expect(
      buildCatchUp(input([{ event: created }, { event: canceled }], { catchUpAfterMs: 3_600_000 })).id,
    ).not.toBe(a.id);
    expect(
      buildCatchUp(input([{ event: created }, { event: canceled }], { subscriberId: 'kitchen' })).id,
    ).not.toBe(a.id);
  });

  it('absorbs a catch-up still queued: one message standing for the events of both', () => {
    const older = buildCatchUp(
      input([{ event: created, sourceTime: detected - 40 * MINUTE }, { event: allergic }], {
        unpolled: { fromMs: detected - 45 * MINUTE, toMs: detected - 5 * MINUTE },
      }),
    );
    const newer = buildCatchUp(
      input([{ event: canceled }, { event: late }], { nowMs: detected + 20 * MINUTE, absorbing: older }),
    );
    expect(newer.data).toMatchObject({
      events: 4,
      event_ids: [created.id, allergic.id, canceled.id, late.id],
      by_type: [
        { name: 'order.created', count: 3 },
        { name: 'order.canceled', count: 1 },
      ],
      after_closing_count: 1,
      notes_count: 1,
      unpolled: older.data.unpolled,
      first_change_at: older.data.first_change_at,
    });
    expect(newer.id).not.toBe(older.id);
  });

  it('shows its times in the organization’s zone when it knows it', () => {
    const catchUp = buildCatchUp(
      input([{ event: created, sourceTime: detected - 30 * MINUTE }], {
        organization: { id: 'org', name: 'North School', timeZone: 'Europe/Madrid' },
      }),
    );
    expect(catchUp.data.first_change_at).toBe('2026-03-05T10:30:00+01:00');
    expect(catchUp.data.organization.time_zone).toBe('Europe/Madrid');
  });
});

describe('the notes a catch-up lists', () => {
  const event = () =>
    makeOrderEvent({
      order: { notes: 'Milk allergy', items: [makeOrderItem({ name: 'Soup', notes: 'no onions' })] },
    });

  it('are the order’s flagged notes by the default words: its own first, then its lines’ with the item’s name', () => {
    expect(buildCatchUp(input([{ event: event() }])).data.notes[0]?.notes).toEqual(['Milk allergy']);
  });

  it('follow the organization’s own highlight words', () => {
    const catchUp = buildCatchUp(
      input([{ event: event() }], {
        organization: { id: 'org', name: 'North School', highlightWords: ['onion', 'milk'] },
      }),
    );
    expect(catchUp.data.notes[0]?.notes).toEqual(['Milk allergy', 'Soup: no onions']);
    const none = buildCatchUp(
      input([{ event: event() }], { organization: { id: 'org', name: 'N', highlightWords: [] } }),
    );
    expect(none.data.notes).toEqual([]);
  });
});
