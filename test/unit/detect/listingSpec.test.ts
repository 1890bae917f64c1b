import { describe, expect, it } from 'vitest';
import {
  covers,
  type ListingSpec,
  listingKey,
  listingKeyEndDate,
  listingKeyEstablishment,
  pagesFor,
} from '../../../shared/detect/listingSpec.js';

const EST = 'e5a1b2c3-0000-4000-8000-000000000001';
const OTHER_EST = 'e5a1b2c3-0000-4000-8000-000000000002';

describe('listingKey', () => {
  it('names a whole-window listing by its status alone', () => {
    const listing: ListingSpec = {
      kind: 'window',
      status: 'pending',
      startDate: '2026-11-18',
      endDate: '2026-11-25',
      establishment: undefined,
    };
    expect(listingKey(listing)).toBe('pending');
  });

  it('appends @establishment to a window listed per establishment', () => {
    const listing: ListingSpec = {
      kind: 'window',
      status: 'completed',
      startDate: '2026-11-18',
      endDate: '2026-11-25',
      establishment: EST,
    };
    expect(listingKey(listing)).toBe(`completed@${EST}`);
  });

  it('names a date part by its status and date range', () => {
    const listing: ListingSpec = {
      kind: 'part',
      status: 'pending',
      startDate: '2026-11-20',
      endDate: '2026-11-21',
      establishment: undefined,
    };
    expect(listingKey(listing)).toBe('pending[2026-11-20..2026-11-21]');
  });

  it('names a date part of one establishment with its range, then @establishment', () => {
    const listing: ListingSpec = {
      kind: 'part',
      status: 'pending',
      startDate: '2026-11-20',
      endDate: '2026-11-21',
      establishment: EST,
    };
    expect(listingKey(listing)).toBe(`pending[2026-11-20..2026-11-21]@${EST}`);
  });

  it('names a narrow look-up by status, pickup date and establishment', () => {
    const listing: ListingSpec = {
      kind: 'narrow',
      status: 'completed',
      startDate: '2026-11-20',
      endDate: '2026-11-20',
      establishment: EST,
    };
    expect(listingKey(listing)).toBe(`completed:2026-11-20@${EST}`);
  });

  it('appends /method to a narrow look-up among the orders paid one way', () => {
    const listing: ListingSpec = {
      kind: 'narrow',
      status: 'completed',
      startDate: '2026-11-20',
      endDate: '2026-11-20',
      establishment: EST,
      paymentMethod: 'card',
    };
    expect(listingKey(listing)).toBe(`completed:2026-11-20@${EST}/card`);
    // It lists only the orders last seen paid that way.
    const order = { pickupDate: '2026-11-20', establishment: EST };
    expect(covers(listing, 'completed', { ...order, paymentMethod: 'card' })).toBe(true);
    expect(covers(listing, 'completed', { ...order, paymentMethod: 'cash' })).toBe(false);
    expect(covers(listing, 'completed', order)).toBe(false);
  });
});

describe('pagesFor', () => {
  it('counts one page for an empty listing: the request that shows it is empty', () => {
    expect(pagesFor(0)).toBe(1);
  });

  it('counts one page for an unknown size', () => {
    expect(pagesFor(undefined)).toBe(1);
  });

  it('fits 25 orders on one page', () => {
    expect(pagesFor(25)).toBe(1);
  });

  it('needs a second page for the 26th order', () => {
    expect(pagesFor(26)).toBe(2);
  });

  it('rounds up to whole pages of 25', () => {
    expect(pagesFor(50)).toBe(2);
    expect(pagesFor(51)).toBe(3);
  });
});

describe('covers', () => {
  const window: ListingSpec = {
    kind: 'window',
    status: 'pending',
    startDate: '2026-11-18',
    endDate: '2026-11-25',
    establishment: undefined,
  };
  const atEst: ListingSpec = { ...window, kind: 'part', establishment: EST };

  it('covers an order of its status on a date inside its bounds', () => {
    expect(covers(window, 'pending', { pickupDate: '2026-11-20', establishment: EST })).toBe(true);
  });

  it('does not cover an order of another status', () => {
    expect(covers(window, 'completed', { pickupDate: '2026-11-20', establishment: EST })).toBe(false);
  });

  it('includes its first and last dates', () => {
    expect(covers(window, 'pending', { pickupDate: '2026-11-18', establishment: EST })).toBe(true);
    expect(covers(window, 'pending', { pickupDate: '2026-11-25', establishment: EST })).toBe(true);
  });

  it('excludes the day before its start and the day after its end', () => {
    expect(covers(window, 'pending', { pickupDate: '2026-11-17', establishment: EST })).toBe(false);
    expect(covers(window, 'pending', { pickupDate: '2026-11-26', establishment: EST })).toBe(false);
  });

  it('covers any establishment when it names none', () => {
    expect(covers(window, 'pending', { pickupDate: '2026-11-20', establishment: OTHER_EST })).toBe(true);
  });

  it('covers only its own establishment when it names one', () => {
    expect(covers(atEst, 'pending', { pickupDate: '2026-11-20', establishment: EST })).toBe(true);
    expect(covers(atEst, 'pending', { pickupDate: '2026-11-20', establishment: OTHER_EST })).toBe(false);
  });
});

describe('listingKeyEstablishment', () => {
  it('reads back the establishment of every kind of key listingKey builds, and none for a key of all', () => {
    const bounds = { status: 'completed', startDate: '2026-11-20', endDate: '2026-11-21' } as const;
    const keyed: ListingSpec[] = [
      { ...bounds, kind: 'window', establishment: EST },
      { ...bounds, kind: 'part', establishment: EST },
      { ...bounds, kind: 'narrow', establishment: EST },
      { ...bounds, kind: 'narrow', establishment: EST, paymentMethod: 'card' },
    ];
    for (const listing of keyed) expect(listingKeyEstablishment(listingKey(listing))).toBe(EST);
    expect(listingKeyEstablishment(listingKey({ ...bounds, kind: 'part', establishment: undefined }))).toBe(
      undefined,
    );
  });
});

describe('listingKeyEndDate', () => {
  it('reads the last pickup date of a date part’s key', () => {
    expect(listingKeyEndDate('pending[2026-11-20..2026-11-21]')).toBe('2026-11-21');
  });

  it('reads it before the @establishment of a part of one establishment', () => {
    expect(listingKeyEndDate(`pending[2026-11-20..2026-11-21]@${EST}`)).toBe('2026-11-21');
  });

  it('is undefined for a whole-window key, of one establishment or all', () => {
    expect(listingKeyEndDate('pending')).toBeUndefined();
    expect(listingKeyEndDate(`completed@${EST}`)).toBeUndefined();
  });

  it('is undefined for a narrow look-up’s key, though it names a date', () => {
    expect(listingKeyEndDate(`completed:2026-11-20@${EST}`)).toBeUndefined();
  });
});
