// Pins how today first cuts the window (pure): today's listing apart from the rest, checked between whole
// walks, and the rest walked a part at a time, when its period is up, the part whose dates went unwalked
// the longest first.
import { describe, expect, it } from 'vitest';
import { detectWalk, type ListingSpec } from '../../../shared/detect/listingSpec.js';
import {
  checkedWalks,
  restPartIsDue,
  restParts,
  restPartsNow,
  todayFirstWalks,
} from '../../../shared/detect/todayFirst.js';

const TODAY = '2026-03-10';

const walk = (listing: ListingSpec, pages = 1) => detectWalk(listing, pages);

const window = (startDate: string, endDate: string, pages: number) =>
  walk({ kind: 'window', status: 'pending', startDate, endDate, establishment: undefined }, pages);

describe('todayFirstWalks', () => {
  it('cuts the window into today and the days on either side, sized from what is pending there', () => {
    const perDate: Record<string, number> = {
      '2026-03-09': 3,
      [TODAY]: 60,
      '2026-03-11': 50,
      '2026-03-12': 40,
    };
    const cut = todayFirstWalks([window('2026-03-09', '2026-03-12', 7)], TODAY, (listing) => {
      let orders = 0;
      for (const [date, n] of Object.entries(perDate))
        if (listing.startDate <= date && date <= listing.endDate) orders += n;
      return orders;
    });
    expect(cut?.today.map((part) => [part.key, part.estimatedRequests])).toEqual([
      [`pending[${TODAY}..${TODAY}]`, 3],
    ]);
    expect(cut?.rest.map((part) => [part.key, part.estimatedRequests])).toEqual([
      ['pending[2026-03-09..2026-03-09]', 1],
      ['pending[2026-03-11..2026-03-12]', 4],
    ]);
  });

  it('is off for a window of a page or two: a cycle of today alone would save nothing', () => {
    expect(todayFirstWalks([window(TODAY, '2026-03-17', 2)], TODAY, () => 10)).toBeUndefined();
  });
});

/** The part walked longest ago: the first restParts gives. */
const restPartDue = (...args: Parameters<typeof restParts>) => restParts(...args)[0] ?? [];

describe('restParts', () => {
  const rest = [
    walk({
      kind: 'part',
      status: 'pending',
      startDate: '2026-03-08',
      endDate: '2026-03-09',
      establishment: undefined,
    }),
    walk({
      kind: 'part',
      status: 'pending',
      startDate: '2026-03-11',
      endDate: '2026-03-14',
      establishment: undefined,
    }),
  ];
  const orders: Record<string, number> = {
    '2026-03-08': 0,
    '2026-03-09': 10,
    '2026-03-11': 40,
    '2026-03-12': 30,
    '2026-03-13': 20,
    '2026-03-14': 20,
  };

  it('walks the whole rest when it is walked in one part', () => {
    const due = restPartDue(
      rest,
      1,
      (_, date) => orders[date] ?? 0,
      () => 1_000,
    );
    expect(due.map((part) => [part.key, part.estimatedRequests])).toEqual([
      ['pending[2026-03-08..2026-03-09]', 1],
      ['pending[2026-03-11..2026-03-14]', 5],
    ]);
  });

  it('cuts the rest into runs of about as many orders, and walks the one whose dates went unwalked longest', () => {
    // 120 orders in two parts, each cut once it holds half: 03-08 to 03-12 (80), then 03-13 and 03-14 (40);
    // the second's 03-13 went unwalked the longest.
    const coveredAt = (_: ListingSpec, date: string) => (date === '2026-03-13' ? 100 : 500);
    const due = restPartDue(rest, 2, (_, date) => orders[date] ?? 0, coveredAt);
    expect(due.map((part) => part.key)).toEqual(['pending[2026-03-13..2026-03-14]']);
    // A run crossing today is two listings, one each side.
    const other = restPartDue(
      rest,
      2,
      (_, date) => orders[date] ?? 0,
      (_, date) => (date === '2026-03-09' ? 1 : 500),
    );
    expect(other.map((part) => [part.key, part.estimatedRequests])).toEqual([
      ['pending[2026-03-08..2026-03-09]', 1],
      ['pending[2026-03-11..2026-03-12]', 3],
    ]);
  });

  it('walks a date never walked before any other', () => {
    const due = restPartDue(
      rest,
      3,
      (_, date) => orders[date] ?? 0,
      (_, date) => (date === '2026-03-14' ? undefined : 500),
    );
    expect(due.map((part) => part.key)).toContain('pending[2026-03-13..2026-03-14]');
  });
});

describe('checkedWalks', () => {
  const todays = walk(
    { kind: 'part', status: 'pending', startDate: TODAY, endDate: TODAY, establishment: undefined },
    4,
  );
  const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
  const known = ['a', 'b', 'c'];
  const input = (overrides: Partial<Parameters<typeof checkedWalks>[1]> = {}) => ({
    now: NOW,
    wholeEveryMs: 90_000,
    gapMs: 5_000,
    walkedAt: { [todays.key]: NOW - 30_000 },
    unpredicted: [],
    closings: [],
    knownListed: () => known,
    ...overrides,
  });
  const closing = (closesAt: number) => ({
    establishment: { uuid: 'kitchen', name: 'Kitchen' },
    pickupDate: TODAY,
    closesAt,
  });

  it('checks today between whole walks, with the orders we know in their order', () => {
    expect(checkedWalks([todays], input())).toEqual([{ ...todays, check: known }]);
  });

  it('walks whole when never walked whole, when the next cycle would come past the period, or when not in our order', () => {
    expect(checkedWalks([todays], input({ walkedAt: {} }))).toEqual([todays]);
    expect(checkedWalks([todays], input({ walkedAt: { [todays.key]: NOW - 85_000 } }))).toEqual([todays]);
    expect(checkedWalks([todays], input({ walkedAt: { [todays.key]: NOW - 84_000 } }))[0]?.check).toEqual(
      known,
    );
    expect(checkedWalks([todays], input({ unpredicted: [todays.key] }))).toEqual([todays]);
    expect(checkedWalks([todays], input({ knownListed: () => undefined }))).toEqual([todays]);
  });

  it('walks whole in the first cycle after a closing, for the prep summary to count every order', () => {
    expect(checkedWalks([todays], input({ closings: [closing(NOW - 10_000)] }))).toEqual([todays]);
    // Walked whole since that closing, or the closing still to come: checked.
    expect(checkedWalks([todays], input({ closings: [closing(NOW - 40_000)] }))[0]?.check).toEqual(known);
    expect(checkedWalks([todays], input({ closings: [closing(NOW + 10_000)] }))[0]?.check).toEqual(known);
  });
});

describe('restPartIsDue', () => {
  const part = [
    walk({
      kind: 'part',
      status: 'pending',
      startDate: '2026-03-11',
      endDate: '2026-03-12',
      establishment: undefined,
    }),
  ];
  const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

  it("walks the part once its longest-unwalked date has waited the rest's period, less the gap to the next cycle", () => {
    const covered = (ago: Record<string, number>) => (_: ListingSpec, date: string) =>
      ago[date] === undefined ? undefined : NOW - (ago[date] as number);
    const timing = { now: NOW, periodMs: 36_000, gapMs: 5_000 };
    expect(restPartIsDue(part, timing, covered({ '2026-03-11': 10_000, '2026-03-12': 30_000 }))).toBe(false);
    expect(restPartIsDue(part, timing, covered({ '2026-03-11': 10_000, '2026-03-12': 31_000 }))).toBe(true);
    // A date never walked is due at once; nothing to walk is never due.
    expect(restPartIsDue(part, timing, covered({ '2026-03-11': 1_000 }))).toBe(true);
    expect(restPartIsDue([], timing, covered({}))).toBe(false);
  });
});

describe('restPartsNow', () => {
  const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
  const on = (date: string) =>
    walk({ kind: 'part', status: 'pending', startDate: date, endDate: date, establishment: undefined });
  const parts = [[on('2026-03-11')], [on('2026-03-12')], [on('2026-03-13')]];
  // All three walked 40 s ago: all due at a period of 36 s.
  const covered = () => NOW - 40_000;
  const keys = (walks: readonly { key: string }[]) => walks.map((w) => w.key);

  it('walks one due part a cycle where cycles come every few seconds: the others take their turns', () => {
    const taken = restPartsNow(parts, { now: NOW, periodMs: 36_000, gapMs: 5_000 }, covered, () => true);
    expect(keys(taken)).toEqual(['pending[2026-03-11..2026-03-11]']);
  });

  it('walks every due part that fits where a turn would be a whole slow cycle', () => {
    const taken = restPartsNow(parts, { now: NOW, periodMs: 36_000, gapMs: 30_000 }, covered, () => true);
    expect(taken).toHaveLength(3);
    const two = restPartsNow(
      parts,
      { now: NOW, periodMs: 36_000, gapMs: 30_000 },
      covered,
      (t) => t.length < 2,
    );
    expect(two).toHaveLength(2);
    // None due: none walked.
    expect(restPartsNow(parts, { now: NOW, periodMs: 90_000, gapMs: 30_000 }, covered, () => true)).toEqual(
      [],
    );
  });
});
