// Which orders stay unreadable, and since when: first seen kept while the record stays malformed, cleared
// once it reads well, forgotten once it is not seen for two days, and bounded, keeping the oldest.
import { describe, expect, it } from 'vitest';
import type { ListingProblem } from '../../../shared/api/listingProblem.js';
import {
  FORGET_UNREADABLE_AFTER_MS,
  MAX_UNREADABLE_ORDERS,
  trackUnreadable,
  unreadableFor,
} from '../../../shared/detect/unreadableOrders.js';

const T0 = Date.UTC(2026, 2, 10, 11, 0, 0);
const HOUR = 3_600_000;

function skipped(uuid: string | undefined, page = 1, listing = 'pending'): ListingProblem {
  return {
    kind: 'skipped_record',
    listing,
    page,
    ...(uuid === undefined ? {} : { uuid }),
    detail: 'record #0 on the page: total: invalid',
  };
}

const none = new Set<string>();

describe('trackUnreadable', () => {
  it('remembers a skipped record by uuid, with where it was and since when', () => {
    expect(trackUnreadable({}, { problems: [skipped('a', 2)], readWell: none, now: T0 })).toEqual({
      a: {
        since: T0,
        lastSeenAt: T0,
        listing: 'pending',
        page: 2,
        detail: 'record #0 on the page: total: invalid',
      },
    });
  });

  it('keeps since when while the record stays malformed, following it to another listing', () => {
    const first = trackUnreadable({}, { problems: [skipped('a')], readWell: none, now: T0 });
    const later = trackUnreadable(first, {
      problems: [skipped('a', 4, 'completed')],
      readWell: none,
      now: T0 + 2 * HOUR,
    });
    expect(later.a).toMatchObject({ since: T0, lastSeenAt: T0 + 2 * HOUR, listing: 'completed', page: 4 });
  });

  it('clears an order once its record reads well, even if another listing still has it malformed', () => {
    const first = trackUnreadable({}, { problems: [skipped('a'), skipped('b')], readWell: none, now: T0 });
    const next = trackUnreadable(first, {
      problems: [skipped('b', 1, 'completed')],
      readWell: new Set(['a', 'b']),
      now: T0 + HOUR,
    });
    expect(next).toEqual({});
  });

  it('keeps an order the cycle did not see at all: a later sweep may find it malformed again', () => {
    const first = trackUnreadable({}, { problems: [skipped('a')], readWell: none, now: T0 });
    expect(trackUnreadable(first, { problems: [], readWell: none, now: T0 + HOUR })).toEqual(first);
  });

  it('forgets an order not seen for two days: it left the window or was deleted', () => {
    const first = trackUnreadable({}, { problems: [skipped('a')], readWell: none, now: T0 });
    const now = T0 + FORGET_UNREADABLE_AFTER_MS + 1;
    expect(trackUnreadable(first, { problems: [], readWell: none, now })).toEqual({});
  });

  it('cannot remember a record whose uuid was unreadable, nor other kinds of problem', () => {
    const problems: ListingProblem[] = [
      skipped(undefined),
      { kind: 'repeated_uuid', listing: 'pending', page: 1, uuid: 'c', detail: 'listed before' },
      { kind: 'inconsistent_walk', listing: 'pending', page: 2, detail: 'meta.total moved from 3 to 4' },
    ];
    expect(trackUnreadable({}, { problems, readWell: none, now: T0 })).toEqual({});
  });

  it(`holds at most ${MAX_UNREADABLE_ORDERS} orders, the longest unreadable`, () => {
    const old = trackUnreadable({}, { problems: [skipped('old')], readWell: none, now: T0 });
    const many = Array.from({ length: MAX_UNREADABLE_ORDERS + 5 }, (_, i) => skipped(`new-${i}`));
    const next = trackUnreadable(old, { problems: many, readWell: none, now: T0 + HOUR });
    expect(Object.keys(next)).toHaveLength(MAX_UNREADABLE_ORDERS);
    expect(next.old?.since).toBe(T0);
  });
});

describe('unreadableFor', () => {
  it('lists the orders unreadable for longer than asked, the longest first', () => {
    let orders = trackUnreadable({}, { problems: [skipped('b')], readWell: none, now: T0 });
    orders = trackUnreadable(orders, { problems: [skipped('a')], readWell: none, now: T0 + HOUR / 2 });
    orders = trackUnreadable(orders, { problems: [skipped('c')], readWell: none, now: T0 + 2 * HOUR });
    expect(unreadableFor(orders, HOUR, T0 + 2 * HOUR).map((order) => order.uuid)).toEqual(['b', 'a']);
    expect(unreadableFor(orders, HOUR, T0 + HOUR)).toEqual([]);
  });
});
