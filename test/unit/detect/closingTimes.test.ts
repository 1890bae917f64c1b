import { describe, expect, it } from 'vitest';
import { closingsOn, worksOn } from '../../../shared/detect/closingTimes.js';

const canteen = {
  uuid: 'c',
  name: 'Main Canteen',
  working_days: [1, 2, 3, 4, 5],
  order_closing_time: '10:30:00',
};
const cafe = {
  uuid: 'f',
  name: 'Café Bar',
  working_days: [1, 2, 3, 4, 5, 6],
  order_closing_time: '09:00:00',
};

describe('closing times', () => {
  it('lists the day’s closings earliest first, in the organization’s zone', () => {
    expect(closingsOn([canteen, cafe], '2026-11-24', 'Europe/Lisbon')).toEqual([
      {
        establishment: { uuid: 'f', name: 'Café Bar' },
        pickupDate: '2026-11-24',
        closesAt: Date.parse('2026-11-24T09:00:00Z'),
      },
      {
        establishment: { uuid: 'c', name: 'Main Canteen' },
        pickupDate: '2026-11-24',
        closesAt: Date.parse('2026-11-24T10:30:00Z'),
      },
    ]);
  });

  it('has no closing on a day the establishment does not work', () => {
    expect(worksOn(canteen, '2026-11-28')).toBe(false);
    expect(
      closingsOn([canteen, cafe], '2026-11-28', 'Europe/Lisbon').map((c) => c.establishment.name),
    ).toEqual(['Café Bar']);
    expect(closingsOn([canteen, cafe], '2026-11-29', 'Europe/Lisbon')).toEqual([]);
  });
});
