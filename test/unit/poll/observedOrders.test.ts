// Pins which sighting of an order a cycle keeps: the one with the later updated_at, in the place the order
// was first seen; orders of a walk cut short count, a failed walk gives none.
import { describe, expect, it } from 'vitest';
import { observedOrders } from '../../../shared/poll/observedOrders.js';
import { listingOf, plannedWalk, windowListing } from '../../support/cycleFixture.js';
import { laterOrder, parsedOrder } from '../../support/detectFixtures.js';

const pendingWalk = plannedWalk();
const completedWalk = plannedWalk(windowListing({ status: 'completed' }));

describe('observedOrders', () => {
  it('keys every order seen by uuid, in the order first seen across the walks', () => {
    const [a, b, c] = [parsedOrder(), parsedOrder(), parsedOrder()];
    const seen = observedOrders([
      { walk: pendingWalk, listing: listingOf([b, a]) },
      { walk: completedWalk, listing: listingOf([c]) },
    ]);
    expect([...seen.keys()]).toEqual([b.uuid, a.uuid, c.uuid]);
    expect(seen.get(c.uuid)).toBe(c);
  });

  it('keeps the later sighting of an order that moved during the cycle, where it was first seen', () => {
    const first = parsedOrder({ updated_at: '2026-03-10T06:00:00.000000Z' });
    const other = parsedOrder();
    const completed = laterOrder(first, {
      status: { label: 'Completed', value: 'completed' },
      updated_at: '2026-03-10T06:00:01.000000Z',
    });
    const seen = observedOrders([
      { walk: pendingWalk, listing: listingOf([first, other]) },
      { walk: completedWalk, listing: listingOf([completed]) },
    ]);
    expect([...seen.keys()]).toEqual([first.uuid, other.uuid]);
    expect(seen.get(first.uuid)?.status.value).toBe('completed');
  });

  it('keeps the earlier walk’s sighting when a later one is older or no newer', () => {
    const current = parsedOrder({
      status: { label: 'Completed', value: 'completed' },
      updated_at: '2026-03-10T06:00:01.000000Z',
    });
    const stale = laterOrder(current, {
      status: { label: 'Pending', value: 'pending' },
      updated_at: '2026-03-10T06:00:00.000000Z',
    });
    const same = laterOrder(current, { notes: 'same instant' });
    const seen = observedOrders([
      { walk: completedWalk, listing: listingOf([current]) },
      { walk: pendingWalk, listing: listingOf([stale]) },
      { walk: pendingWalk, listing: listingOf([same]) },
    ]);
    expect(seen.get(current.uuid)).toBe(current);
  });

  it('counts the orders of a walk cut short, and none of a failed walk', () => {
    const kept = parsedOrder();
    const seen = observedOrders([
      { walk: pendingWalk, listing: listingOf([kept], { stoppedEarly: true, complete: false }) },
      { walk: completedWalk, error: new Error('HTTP 500') },
    ]);
    expect([...seen.keys()]).toEqual([kept.uuid]);
  });
});
