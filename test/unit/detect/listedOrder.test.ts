// Pins the order we predict the API lists orders in: pickup date, then creation time, then uuid.
import { describe, expect, it } from 'vitest';
import { compareListed, isListedAsWePredict } from '../../../shared/detect/listedOrder.js';
import { parsedOrder } from '../../support/detectFixtures.js';

const place = (pickupDate: string, createdAt: string, uuid: string) => ({ pickupDate, createdAt, uuid });

describe('compareListed', () => {
  it('lists by pickup date first, then creation time, then uuid', () => {
    const places = [
      place('2026-03-11', '2026-03-01T08:00:00Z', 'a'),
      place('2026-03-10', '2026-03-09T08:00:00Z', 'b'),
      place('2026-03-10', '2026-03-09T08:00:00Z', 'a'),
      place('2026-03-10', '2026-03-08T08:00:00Z', 'z'),
    ];
    expect([...places].sort(compareListed).map((p) => `${p.pickupDate} ${p.uuid}`)).toEqual([
      '2026-03-10 z',
      '2026-03-10 a',
      '2026-03-10 b',
      '2026-03-11 a',
    ]);
    const same = place('2026-03-10', '2026-03-09T08:00:00Z', 'a');
    expect(compareListed(same, { ...same })).toBe(0);
  });
});

describe('isListedAsWePredict', () => {
  const order = (pickup_at: string, created_at: string) => parsedOrder({ pickup_at, created_at });

  it('accepts records in our order, and refuses one out of it', () => {
    const early = order('2026-03-10', '2026-03-09T08:00:00.000000Z');
    const late = order('2026-03-10', '2026-03-09T09:00:00.000000Z');
    const thursday = order('2026-03-12', '2026-03-01T08:00:00.000000Z');
    expect(isListedAsWePredict([early, late, thursday])).toBe(true);
    expect(isListedAsWePredict([late, early])).toBe(false);
    expect(isListedAsWePredict([thursday, early])).toBe(false);
    expect(isListedAsWePredict([])).toBe(true);
  });
});
