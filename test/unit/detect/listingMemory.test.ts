// Pins what the listing memory keeps between cycles: each remembered listing's size (even from a walk cut
// short) and when it was last walked whole; never look-ups or sweep parts; parts that ended before the window forgotten.
import { describe, expect, it } from 'vitest';
import {
  forgetListingsBefore,
  type ListingMemory,
  rememberWalks,
} from '../../../shared/detect/listingMemory.js';
import type { WalkResult } from '../../../shared/detect/walkResult.js';
import { listingOf, plannedWalk, windowListing } from '../../support/cycleFixture.js';

const EST = 'e5a1b2c3-0000-4000-8000-000000000001';
const AT = 1_773_000_000_000;
const EARLIER = AT - 60_000;
const EMPTY: ListingMemory = { sizes: {}, walkedAt: {} };

function walked(
  listing = windowListing(),
  walk: Partial<ReturnType<typeof listingOf>> = {},
  purpose?: 'detect' | 'resolve' | 'sweep',
): WalkResult {
  return {
    walk: plannedWalk(listing, purpose ? { purpose } : {}),
    listing: listingOf([], { total: 30, ...walk }),
  };
}

describe('rememberWalks', () => {
  it('remembers a complete walk’s size and when it was walked, by listing key', () => {
    expect(rememberWalks(EMPTY, [walked()], AT)).toEqual({
      sizes: { pending: 30 },
      walkedAt: { pending: AT },
    });
  });

  it('remembers the size of a walk cut short, but not that it was walked', () => {
    const before: ListingMemory = { sizes: { pending: 10 }, walkedAt: { pending: EARLIER } };
    expect(rememberWalks(before, [walked(windowListing(), { stoppedEarly: true, total: 80 })], AT)).toEqual({
      sizes: { pending: 80 },
      walkedAt: { pending: EARLIER },
    });
  });

  it('does not count a walk with a skipped record or inconsistent pages as walked', () => {
    const memory = rememberWalks(
      EMPTY,
      [
        walked(windowListing(), { complete: false }),
        walked(windowListing({ status: 'completed' }), { consistent: false }),
      ],
      AT,
    );
    expect(memory).toEqual({ sizes: { pending: 30, completed: 30 }, walkedAt: {} });
  });

  it('keeps the size it knew when the server sent no total', () => {
    const before: ListingMemory = { sizes: { pending: 10 }, walkedAt: {} };
    expect(rememberWalks(before, [walked(windowListing(), { total: undefined })], AT)).toEqual({
      sizes: { pending: 10 },
      walkedAt: { pending: AT },
    });
  });

  it('learns nothing from a failed walk', () => {
    expect(rememberWalks(EMPTY, [{ walk: plannedWalk(), error: new Error('HTTP 500') }], AT)).toEqual(EMPTY);
  });

  it('remembers pending’s date parts and whole-window sweeps, never narrow look-ups nor sweep parts', () => {
    const part = windowListing({ kind: 'part', startDate: '2026-03-10', endDate: '2026-03-11' });
    const narrow = windowListing({
      kind: 'narrow',
      status: 'completed',
      startDate: '2026-03-10',
      endDate: '2026-03-10',
      establishment: EST,
    });
    const sweptPart = windowListing({
      kind: 'part',
      status: 'archived',
      startDate: '2026-03-10',
      endDate: '2026-03-11',
    });
    const memory = rememberWalks(
      EMPTY,
      [
        walked(part),
        walked(windowListing({ status: 'archived', establishment: EST }), {}, 'sweep'),
        walked(narrow, {}, 'resolve'),
        walked(sweptPart, {}, 'sweep'),
      ],
      AT,
    );
    expect(Object.keys(memory.sizes).sort()).toEqual([`archived@${EST}`, 'pending[2026-03-10..2026-03-11]']);
    expect(Object.keys(memory.walkedAt).sort()).toEqual(Object.keys(memory.sizes).sort());
  });

  it('lets a later walk of the same listing in the cycle have the last word on its size', () => {
    const memory = rememberWalks(
      EMPTY,
      [walked(windowListing(), { total: 30 }), walked(windowListing(), { total: 31 })],
      AT,
    );
    expect(memory.sizes).toEqual({ pending: 31 });
  });
});

describe('forgetListingsBefore', () => {
  it('forgets the parts whose last date is before the window’s start, and keeps whole-window listings', () => {
    const memory: ListingMemory = {
      sizes: {
        pending: 40,
        [`completed@${EST}`]: 3,
        'pending[2026-03-08..2026-03-09]': 20,
        [`pending[2026-03-09..2026-03-10]@${EST}`]: 25,
        'pending[2026-03-11..2026-03-17]': 5,
      },
      walkedAt: { 'pending[2026-03-08..2026-03-09]': EARLIER, 'pending[2026-03-11..2026-03-17]': EARLIER },
    };
    expect(forgetListingsBefore(memory, '2026-03-10')).toEqual({
      sizes: {
        pending: 40,
        [`completed@${EST}`]: 3,
        [`pending[2026-03-09..2026-03-10]@${EST}`]: 25,
        'pending[2026-03-11..2026-03-17]': 5,
      },
      walkedAt: { 'pending[2026-03-11..2026-03-17]': EARLIER },
    });
  });
});
