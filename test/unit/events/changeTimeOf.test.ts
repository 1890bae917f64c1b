// When an order event's change happened as the event itself tells: what the kitchen's board dates a change
// by, so that an outage's backlog, detected late, is seen as old.
import { describe, expect, it } from 'vitest';
import { changeTimeOf, isStale } from '../../../shared/events/staleness.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

const FIFTEEN_MINUTES = 15 * 60_000;
const DETECTED = '2026-03-05T12:00:00.000Z';

describe('changeTimeOf', () => {
  it('dates a new order by its created_at, not by when it was detected', () => {
    const event = makeOrderEvent({
      type: 'order.created',
      order: { created_at: '2026-03-05T10:00:00.000000Z' },
      detectedAt: DETECTED,
    });
    expect(changeTimeOf(event)).toBe(Date.parse('2026-03-05T10:00:00Z'));
    expect(isStale(event, changeTimeOf(event), Date.parse(DETECTED), FIFTEEN_MINUTES)).toBe(true);
    expect(isStale(event, undefined, Date.parse(DETECTED), FIFTEEN_MINUTES)).toBe(false);
  });

  it('dates a cancellation by the canceled_at it reports, and a change of notes by the order updated_at', () => {
    const canceled = makeOrderEvent({
      type: 'order.canceled',
      order: { canceled_at: '2026-03-05T11:20:00.000000Z' },
      detectedAt: DETECTED,
    });
    expect(changeTimeOf(canceled)).toBe(Date.parse('2026-03-05T11:20:00Z'));
    const updated = makeOrderEvent({
      type: 'order.updated',
      order: { updated_at: '2026-03-05T11:50:00.000000Z' },
      detectedAt: DETECTED,
    });
    expect(changeTimeOf(updated)).toBe(Date.parse('2026-03-05T11:50:00Z'));
  });
});
