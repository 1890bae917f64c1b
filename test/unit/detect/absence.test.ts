import { describe, expect, it } from 'vitest';
import type { Listing } from '../../../shared/api/pagination.js';
import type { Order } from '../../../shared/api/schemas.js';
import {
  CLOCK_SKEW_MS,
  findVanished,
  holds,
  isMissingEverywhere,
  isNews,
  searchedStatuses,
} from '../../../shared/detect/absence.js';
import { type Coverage, coverageKey } from '../../../shared/detect/coverage.js';
import { detectWalk, type ListingSpec } from '../../../shared/detect/listingSpec.js';
import type { VanishedOrder } from '../../../shared/detect/planResolution.js';
import type { Snapshot } from '../../../shared/detect/snapshot.js';
import { isTrustworthy, type WalkResult } from '../../../shared/detect/walkResult.js';
import { parsedOrder, snapshotOf, statusOf } from '../../support/detectFixtures.js';
import { ESTABLISHMENT_UUID, orderUuid } from '../../support/orderFactory.js';

const OTHER_EST = 'e5a1b2c3-0000-4000-8000-0000000000ff';
const START = '2026-03-04';
const END = '2026-03-10';
const ALL_STATUSES = ['pending', 'completed', 'canceled', 'archived'];

function windowOf(status: string, establishment?: string): ListingSpec {
  return {
    kind: 'window',
    status: status as ListingSpec['status'],
    startDate: START,
    endDate: END,
    establishment,
  };
}

function listingOf(overrides: Partial<Listing<Order>> = {}): Listing<Order> {
  return {
    records: [],
    skipped: [],
    pages: 1,
    total: 0,
    lastPage: 1,
    fromPage: 1,
    stoppedEarly: false,
    complete: true,
    consistent: true,
    problems: [],
    ...overrides,
  };
}

/** A walk of `listing` that went as told (complete, consistent, from page 1, to the end, unless overridden). */
function walked(listing: ListingSpec, overrides: Partial<Listing<Order>> = {}): WalkResult {
  return { walk: detectWalk(listing, 1), listing: listingOf(overrides) };
}

function vanished(n: number, overrides: Partial<VanishedOrder> = {}): VanishedOrder {
  return {
    uuid: orderUuid(n),
    pickupDate: '2026-03-05',
    status: 'pending',
    establishment: ESTABLISHMENT_UUID,
    ...overrides,
  };
}

/** A snapshot of order n, last seen pending on 2026-03-05 unless overridden. */
function snapshot(n: number, overrides: Partial<Snapshot> = {}): Snapshot {
  return snapshotOf(parsedOrder({ uuid: orderUuid(n) }), overrides);
}

function snapshots(...list: Snapshot[]): Map<string, Snapshot> {
  return new Map(list.map((item) => [item.orderUuid, item]));
}

describe('isTrustworthy', () => {
  it('trusts a complete, consistent walk from page 1 to the end', () => {
    expect(isTrustworthy(walked(windowOf('pending')))).toBe(true);
  });

  it('does not trust a walk with no listing (it failed)', () => {
    expect(isTrustworthy({ walk: detectWalk(windowOf('pending'), 1), error: new Error('503') })).toBe(false);
  });

  it('does not trust a walk with a malformed record', () => {
    expect(isTrustworthy(walked(windowOf('pending'), { complete: false }))).toBe(false);
  });

  it('does not trust a walk whose pages disagreed', () => {
    expect(isTrustworthy(walked(windowOf('pending'), { consistent: false }))).toBe(false);
  });

  it('does not trust a walk resumed after page 1', () => {
    expect(isTrustworthy(walked(windowOf('pending'), { fromPage: 2 }))).toBe(false);
  });

  it('does not trust a walk stopped before the end', () => {
    expect(isTrustworthy(walked(windowOf('pending'), { stoppedEarly: true }))).toBe(false);
  });
});

describe('holds', () => {
  const order = { pickupDate: '2026-03-05', establishment: ESTABLISHMENT_UUID };

  it('holds an order its trustworthy listing covers', () => {
    expect(holds(walked(windowOf('pending')), 'pending', order)).toBe(true);
  });

  it('does not hold an order of another status', () => {
    expect(holds(walked(windowOf('pending')), 'completed', order)).toBe(false);
  });

  it('does not hold an order outside its dates or establishment', () => {
    expect(holds(walked(windowOf('pending')), 'pending', { ...order, pickupDate: '2026-03-11' })).toBe(false);
    expect(holds(walked(windowOf('pending', OTHER_EST)), 'pending', order)).toBe(false);
  });

  it('does not hold anything when the walk is not trustworthy', () => {
    expect(holds(walked(windowOf('pending'), { stoppedEarly: true }), 'pending', order)).toBe(false);
  });

  // The order's payment method may have changed since we saw it: a walk of the orders paid as it was proves
  // nothing about its absence, even for an order last seen paid that way.
  it('does not hold an order for a listing narrowed to one payment method, even its own', () => {
    const narrow = (paymentMethod?: 'card'): ListingSpec => ({
      kind: 'narrow',
      status: 'completed',
      startDate: '2026-03-05',
      endDate: '2026-03-05',
      establishment: ESTABLISHMENT_UUID,
      ...(paymentMethod ? { paymentMethod } : {}),
    });
    expect(holds(walked(narrow('card')), 'completed', { ...order, paymentMethod: 'card' })).toBe(false);
    expect(holds(walked(narrow()), 'completed', { ...order, paymentMethod: 'card' })).toBe(true);
  });
});

describe('findVanished', () => {
  it('finds an order missing from a complete walk of its last status', () => {
    const known = snapshot(1);
    expect(findVanished(snapshots(known), new Set(), [walked(windowOf('pending'))])).toEqual([
      {
        uuid: known.orderUuid,
        pickupDate: '2026-03-05',
        status: 'pending',
        establishment: ESTABLISHMENT_UUID,
        paymentMethod: 'card',
      },
    ]);
  });

  it('does not count an order seen this cycle', () => {
    const known = snapshot(1);
    expect(findVanished(snapshots(known), new Set([known.orderUuid]), [walked(windowOf('pending'))])).toEqual(
      [],
    );
  });

  it('leaves an order already marked missing to its TTL', () => {
    const known = snapshot(1, { missingSince: '2026-03-04T10:00:00.000Z' });
    expect(findVanished(snapshots(known), new Set(), [walked(windowOf('pending'))])).toEqual([]);
  });

  it('concludes nothing when its last status’s listing was not walked completely', () => {
    const known = snapshot(1);
    expect(
      findVanished(snapshots(known), new Set(), [walked(windowOf('pending'), { stoppedEarly: true })]),
    ).toEqual([]);
  });

  it('concludes nothing from the walk of another status', () => {
    const known = snapshot(1, { status: 'completed' });
    expect(findVanished(snapshots(known), new Set(), [walked(windowOf('pending'))])).toEqual([]);
  });

  it('concludes nothing for an order outside every walked listing', () => {
    const outsideDates = snapshot(1, { pickupDate: '2026-03-11' });
    const otherEstablishment = snapshot(2, { establishmentUuid: OTHER_EST });
    const walks = [walked(windowOf('pending', ESTABLISHMENT_UUID))];
    expect(findVanished(snapshots(outsideDates, otherEstablishment), new Set(), walks)).toEqual([]);
  });

  it('finds only the orders that vanished, among many', () => {
    const gone = snapshot(1);
    const seen = snapshot(2);
    const notWalked = snapshot(3, { status: 'canceled' });
    const found = findVanished(snapshots(gone, seen, notWalked), new Set([seen.orderUuid]), [
      walked(windowOf('pending')),
    ]);
    expect(found.map((order) => order.uuid)).toEqual([gone.orderUuid]);
  });
});

describe('searchedStatuses', () => {
  it('lists, per order, the statuses whose trustworthy walk covers it', () => {
    const a = vanished(1);
    const b = vanished(2, { pickupDate: '2026-03-11' });
    const walks = [
      walked(windowOf('pending')),
      walked({
        kind: 'narrow',
        status: 'completed',
        startDate: '2026-03-05',
        endDate: '2026-03-05',
        establishment: ESTABLISHMENT_UUID,
      }),
      walked(windowOf('canceled'), { consistent: false }),
    ];
    expect(searchedStatuses([a, b], walks, ALL_STATUSES)).toEqual(
      new Map([
        [a.uuid, new Set(['pending', 'completed'])],
        [b.uuid, new Set()],
      ]),
    );
  });

  it('names only statuses it was asked about', () => {
    const a = vanished(1);
    const searched = searchedStatuses(
      [a],
      [walked(windowOf('pending')), walked(windowOf('completed'))],
      ['completed'],
    );
    expect(searched.get(a.uuid)).toEqual(new Set(['completed']));
  });
});

describe('isMissingEverywhere', () => {
  it('is missing everywhere once every status was searched', () => {
    expect(isMissingEverywhere(new Set(ALL_STATUSES), ALL_STATUSES)).toBe(true);
  });

  it('is not missing everywhere while one status was not searched', () => {
    expect(isMissingEverywhere(new Set(['pending', 'completed', 'canceled']), ALL_STATUSES)).toBe(false);
  });

  it('is not missing everywhere when nothing was searched for it', () => {
    expect(isMissingEverywhere(undefined, ALL_STATUSES)).toBe(false);
    expect(isMissingEverywhere(new Set(), ALL_STATUSES)).toBe(false);
  });

  it('asks only about the statuses it is given', () => {
    expect(isMissingEverywhere(new Set(['pending', 'completed']), ['pending', 'completed'])).toBe(true);
    expect(isMissingEverywhere(new Set(['pending', 'archived']), ['pending', 'completed'])).toBe(false);
  });
});

describe('coverageKey', () => {
  it('is the date alone, or date@establishment when listed apart', () => {
    expect(coverageKey('2026-03-05', undefined)).toBe('2026-03-05');
    expect(coverageKey('2026-03-05', ESTABLISHMENT_UUID)).toBe(`2026-03-05@${ESTABLISHMENT_UUID}`);
  });
});

describe('isNews', () => {
  const LAST_WALK = Date.parse('2026-03-05T10:00:00.000Z');
  const WATCHING_SINCE = Date.parse('2026-03-01T08:00:00.000Z');
  const iso = (ms: number) => new Date(ms).toISOString();

  function history(overrides: Partial<Coverage> = {}): Coverage {
    return { pendingCoveredAt: { '2026-03-05': LAST_WALK }, watchingSince: WATCHING_SINCE, ...overrides };
  }

  function pending(pickupDate: string, createdAt: string, establishment = ESTABLISHMENT_UUID): Order {
    return parsedOrder({
      pickup_at: pickupDate,
      created_at: createdAt,
      establishment: { uuid: establishment, name: 'Canteen' },
    });
  }

  function inStatus(status: string, createdAt: string): Order {
    return parsedOrder({ status: statusOf(status), created_at: createdAt });
  }

  describe('a pending order', () => {
    it('is news on a date walked completely before, however old it claims to be', () => {
      expect(isNews(pending('2026-03-05', '2026-01-01T00:00:00.000Z'), false, history())).toBe(true);
    });

    it('is news on a date never walked when created after the last walk', () => {
      expect(isNews(pending('2026-03-09', iso(LAST_WALK + 1)), false, history())).toBe(true);
    });

    it('is news on a date never walked when created within the clock-skew allowance before the last walk', () => {
      expect(isNews(pending('2026-03-09', iso(LAST_WALK - CLOCK_SKEW_MS)), false, history())).toBe(true);
    });

    it('is not news on a date never walked when created just before the clock-skew allowance', () => {
      expect(isNews(pending('2026-03-09', iso(LAST_WALK - CLOCK_SKEW_MS - 1)), false, history())).toBe(false);
    });

    it('allows 15 minutes of clock skew', () => {
      expect(CLOCK_SKEW_MS).toBe(15 * 60_000);
    });

    it('measures the skew from the latest walk of any date', () => {
      const later = LAST_WALK + 3_600_000;
      const walks = history({ pendingCoveredAt: { '2026-03-05': LAST_WALK, '2026-03-06': later } });
      expect(isNews(pending('2026-03-09', iso(LAST_WALK + 1)), false, walks)).toBe(false);
      expect(isNews(pending('2026-03-09', iso(later - CLOCK_SKEW_MS)), false, walks)).toBe(true);
    });

    it('is never news before the first walk', () => {
      const none = history({ pendingCoveredAt: {}, watchingSince: null });
      expect(isNews(pending('2026-03-05', iso(LAST_WALK + 1)), false, none)).toBe(false);
    });

    it('is news with an unreadable created_at on a date never walked', () => {
      expect(isNews(pending('2026-03-09', 'not a date'), false, history())).toBe(true);
    });

    it('looks up date@establishment coverage when establishments are listed apart', () => {
      const covered = history({ pendingCoveredAt: { [`2026-03-05@${ESTABLISHMENT_UUID}`]: LAST_WALK } });
      const old = '2026-01-01T00:00:00.000Z';
      expect(isNews(pending('2026-03-05', old, ESTABLISHMENT_UUID), true, covered)).toBe(true);
      expect(isNews(pending('2026-03-05', old, OTHER_EST), true, covered)).toBe(false);
    });

    it('does not take a date’s coverage for one establishment’s when listed apart', () => {
      const old = '2026-01-01T00:00:00.000Z';
      expect(isNews(pending('2026-03-05', old), true, history())).toBe(false);
    });
  });

  describe('an order first seen in another status', () => {
    it('is news when created after watching began', () => {
      expect(isNews(inStatus('completed', iso(WATCHING_SINCE + 1)), false, history())).toBe(true);
    });

    it('is news when created exactly as watching began', () => {
      expect(isNews(inStatus('canceled', iso(WATCHING_SINCE)), false, history())).toBe(true);
    });

    it('is not news when created before watching began', () => {
      expect(isNews(inStatus('completed', iso(WATCHING_SINCE - 1)), false, history())).toBe(false);
    });

    it('is not news before watching began at all', () => {
      expect(isNews(inStatus('completed', iso(LAST_WALK)), false, history({ watchingSince: null }))).toBe(
        false,
      );
    });

    it('is not news with an unreadable created_at', () => {
      expect(isNews(inStatus('archived', 'not a date'), false, history())).toBe(false);
    });

    it('is not news for a covered pickup date: coverage is of the pending listing only', () => {
      expect(isNews(inStatus('completed', '2026-01-01T00:00:00.000Z'), false, history())).toBe(false);
    });
  });
});
