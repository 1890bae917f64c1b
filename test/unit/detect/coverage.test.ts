// Pins the coverage record: its keys, and which walks widen it (complete pending walks only, every date
// they span, at the cycle's start), when watching began, and that dates before the window are forgotten.
import { describe, expect, it } from 'vitest';
import {
  type Coverage,
  coverageKey,
  coverageKeyDate,
  pendingReadAt,
  recordCoverage,
} from '../../../shared/detect/coverage.js';
import type { WalkResult } from '../../../shared/detect/walkResult.js';
import { listingOf, plannedWalk, windowListing } from '../../support/cycleFixture.js';

const EST = 'e5a1b2c3-0000-4000-8000-000000000001';
const AT = 1_773_000_000_000;
const EARLIER = AT - 60_000;
const NONE: Coverage = { pendingCoveredAt: {}, watchingSince: null };

/** A walk of pending from `startDate` to `endDate`, walked as `listing` says. */
function pendingWalk(
  startDate: string,
  endDate: string,
  listing: Partial<ReturnType<typeof listingOf>> = {},
  establishment?: string,
): WalkResult {
  return {
    walk: plannedWalk(windowListing({ kind: 'part', startDate, endDate, establishment })),
    listing: listingOf([], listing),
  };
}

describe('coverageKey', () => {
  it('is the pickup date alone when establishments are listed together', () => {
    expect(coverageKey('2026-03-10', undefined)).toBe('2026-03-10');
  });

  it('appends @establishment when establishments are listed apart', () => {
    expect(coverageKey('2026-03-10', EST)).toBe(`2026-03-10@${EST}`);
  });
});

describe('coverageKeyDate', () => {
  it('reads the pickup date back from either form of the key', () => {
    expect(coverageKeyDate('2026-03-10')).toBe('2026-03-10');
    expect(coverageKeyDate(coverageKey('2026-03-11', EST))).toBe('2026-03-11');
  });
});

describe('recordCoverage', () => {
  it('covers every date a complete pending walk spanned, at the cycle’s start, and starts watching then', () => {
    expect(recordCoverage(NONE, [pendingWalk('2026-03-10', '2026-03-12')], AT, '2026-03-10')).toEqual({
      pendingCoveredAt: { '2026-03-10': AT, '2026-03-11': AT, '2026-03-12': AT },
      watchingSince: AT,
    });
  });

  it('keys the dates by establishment when the walk was of one establishment', () => {
    const covered = recordCoverage(
      NONE,
      [pendingWalk('2026-03-10', '2026-03-10', {}, EST)],
      AT,
      '2026-03-10',
    );
    expect(covered.pendingCoveredAt).toEqual({ [`2026-03-10@${EST}`]: AT });
  });

  it('keeps when watching began, and moves the dates walked again to the new start', () => {
    const before: Coverage = {
      pendingCoveredAt: { '2026-03-10': EARLIER, '2026-03-11': EARLIER },
      watchingSince: EARLIER - 60_000,
    };
    expect(recordCoverage(before, [pendingWalk('2026-03-11', '2026-03-12')], AT, '2026-03-10')).toEqual({
      pendingCoveredAt: { '2026-03-10': EARLIER, '2026-03-11': AT, '2026-03-12': AT },
      watchingSince: EARLIER - 60_000,
    });
  });

  it('learns nothing from a pending walk cut short, resumed, with a skipped record, inconsistent or failed', () => {
    const untrustworthy: WalkResult[] = [
      pendingWalk('2026-03-10', '2026-03-10', { stoppedEarly: true }),
      pendingWalk('2026-03-11', '2026-03-11', { fromPage: 2 }),
      pendingWalk('2026-03-12', '2026-03-12', { complete: false }),
      pendingWalk('2026-03-13', '2026-03-13', { consistent: false }),
      { walk: plannedWalk(windowListing({ kind: 'part', startDate: '2026-03-14', endDate: '2026-03-14' })) },
    ];
    expect(recordCoverage(NONE, untrustworthy, AT, '2026-03-10')).toEqual(NONE);
  });

  it('reads a date a check settled without covering it, until a whole walk covers it again', () => {
    const before: Coverage = { pendingCoveredAt: { '2026-03-11': EARLIER }, watchingSince: EARLIER };
    const checked: WalkResult = { ...pendingWalk('2026-03-11', '2026-03-11'), carried: ['kept'] };
    const after = recordCoverage(before, [checked], AT, '2026-03-10');
    expect(after).toEqual({ ...before, pendingReadAt: { '2026-03-11': AT } });
    expect(pendingReadAt(after, '2026-03-11', undefined)).toBe(AT);
    // Never walked whole: a check there reads nothing we could pace by.
    expect(pendingReadAt(after, '2026-03-12', undefined)).toBeUndefined();
    const walked = recordCoverage(after, [pendingWalk('2026-03-11', '2026-03-11')], AT + 5_000, '2026-03-10');
    expect(walked).toEqual({ pendingCoveredAt: { '2026-03-11': AT + 5_000 }, watchingSince: EARLIER });
    expect(pendingReadAt(walked, '2026-03-11', undefined)).toBe(AT + 5_000);
  });

  it('learns nothing from look-ups and sweeps, however complete', () => {
    const narrow = windowListing({
      kind: 'narrow',
      status: 'completed',
      startDate: '2026-03-10',
      endDate: '2026-03-10',
      establishment: EST,
    });
    const walks: WalkResult[] = [
      { walk: plannedWalk(narrow, { purpose: 'resolve' }), listing: listingOf([]) },
      { walk: plannedWalk(windowListing({ status: 'completed' })), listing: listingOf([]) },
    ];
    expect(recordCoverage(NONE, walks, AT, '2026-03-10')).toEqual(NONE);
  });

  it('forgets dates before the window’s start, old ones and newly walked ones alike', () => {
    const before: Coverage = {
      pendingCoveredAt: { '2026-03-08': EARLIER, [`2026-03-09@${EST}`]: EARLIER, '2026-03-10': EARLIER },
      watchingSince: EARLIER,
    };
    expect(recordCoverage(before, [pendingWalk('2026-03-09', '2026-03-11')], AT, '2026-03-10')).toEqual({
      pendingCoveredAt: { '2026-03-10': AT, '2026-03-11': AT },
      watchingSince: EARLIER,
    });
  });
});
