import { describe, expect, it } from 'vitest';
import { eventId, prepSummaryEventId } from '../../../shared/events/eventId.js';
import { seededRandom } from '../../support/detectFixtures.js';

// RFC 9562: version nibble 8 ("custom"), variant bits 10xx (hex 8, 9, a or b), lower-case hex.
const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const ORG = 'org-1';
const ORDER = '00000000-0000-4000-8000-000000000001';

describe('eventId', () => {
  it('gives the same id for the same organization, order, type and state', () => {
    const first = eventId(ORG, ORDER, 'order.canceled', 'canceled@2026-03-05T10:00:00.000000Z');
    const second = eventId(ORG, ORDER, 'order.canceled', 'canceled@2026-03-05T10:00:00.000000Z');
    expect(second).toBe(first);
  });

  it('gives a different id when any one input differs', () => {
    const base = eventId(ORG, ORDER, 'order.completed', 'completed@t1');
    const variants = [
      eventId('org-2', ORDER, 'order.completed', 'completed@t1'),
      eventId(ORG, '00000000-0000-4000-8000-000000000002', 'order.completed', 'completed@t1'),
      eventId(ORG, ORDER, 'order.archived', 'completed@t1'),
      eventId(ORG, ORDER, 'order.completed', 'completed@t2'),
    ];
    for (const variant of variants) expect(variant).not.toBe(base);
    expect(new Set(variants).size).toBe(variants.length);
  });

  it('does not let a value slide from one input into the next', () => {
    // Plain concatenation would make these two collide; the separator keeps them apart.
    expect(eventId('ab', 'c', 'order.created', 'created')).not.toBe(
      eventId('a', 'bc', 'order.created', 'created'),
    );
  });

  it('is shaped as a version 8 UUID with the RFC variant', () => {
    expect(eventId(ORG, ORDER, 'order.created', 'created')).toMatch(UUID_V8);
  });

  it('keeps the UUID shape for every input, whatever the hash bits are', () => {
    const random = seededRandom(8);
    const ids = new Set<string>();
    for (let i = 0; i < 500; i += 1) {
      const id = eventId(
        `org-${random.int(0, 1e9)}`,
        `order-${i}`,
        'order.status_changed',
        `s@${random.next()}`,
      );
      expect(id).toMatch(UUID_V8);
      ids.add(id);
    }
    expect(ids.size).toBe(500);
  });

  it('uses every variant digit (8, 9, a, b) across inputs', () => {
    const variants = new Set<string>();
    for (let i = 0; i < 200; i += 1)
      variants.add(eventId(ORG, `order-${i}`, 'order.created', 'created').charAt(19));
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
  });
});

describe('prepSummaryEventId', () => {
  const ESTABLISHMENT = '00000000-0000-4000-8000-0000000000e1';

  it('is a version 8 UUID, the same for the same organization, establishment and date', () => {
    const id = prepSummaryEventId(ORG, ESTABLISHMENT, '2026-11-24');
    expect(id).toMatch(UUID_V8);
    expect(prepSummaryEventId(ORG, ESTABLISHMENT, '2026-11-24')).toBe(id);
    expect(prepSummaryEventId(ORG.toUpperCase(), ESTABLISHMENT.toUpperCase(), '2026-11-24')).toBe(id);
  });

  it('differs when any input differs', () => {
    const ids = [
      prepSummaryEventId(ORG, ESTABLISHMENT, '2026-11-24'),
      prepSummaryEventId('org-2', ESTABLISHMENT, '2026-11-24'),
      prepSummaryEventId(ORG, ORDER, '2026-11-24'),
      prepSummaryEventId(ORG, ESTABLISHMENT, '2026-11-25'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is kept apart from order event ids by its own type, whatever the state', () => {
    const summary = prepSummaryEventId(ORG, ESTABLISHMENT, '2026-11-24');
    for (const type of ['order.created', 'order.rescheduled', 'order.status_changed']) {
      expect(eventId(ORG, ESTABLISHMENT, type, '2026-11-24')).not.toBe(summary);
    }
  });
});
