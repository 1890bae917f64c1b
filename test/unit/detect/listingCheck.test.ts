// Today's check: which page to read next, and what the listing holds once every unread stretch balances.
import { describe, expect, it } from 'vitest';
import {
  decideCheck,
  firstCheckPage,
  knownListed,
  type PageRead,
} from '../../../shared/detect/listingCheck.js';
import type { ListingSpec } from '../../../shared/detect/listingSpec.js';
import { snapshotOfInput } from '../../support/cycleFixture.js';
import { makeOrder } from '../../support/orderFactory.js';

/** `count` orders known, `o0` to `o<count - 1>`, in the API's order. */
const known = (count: number) => Array.from({ length: count }, (_, i) => `o${i}`);
/** Page `page` of `listing` as the API would serve it. */
const page = (listing: readonly string[], number: number): PageRead => ({
  page: number,
  uuids: listing.slice((number - 1) * 25, number * 25),
});

/** Runs the check to its end against `listing`, as checkListing does; the pages it read, and its decision. */
function check(before: readonly string[], listing: readonly string[]) {
  const reads: PageRead[] = [];
  let next = firstCheckPage(before);
  for (;;) {
    reads.push(page(listing, next));
    const decision = decideCheck(before, listing.length, reads);
    if (decision.kind !== 'read') return { pages: reads.map((read) => read.page), decision };
    next = decision.page;
  }
}

describe("today's check", () => {
  const before = known(100);

  it('reads one page when nothing changed, and carries the other 75 orders as still listed', () => {
    const { pages, decision } = check(before, before);
    expect(pages).toEqual([4]);
    expect(decision).toEqual({ kind: 'settled', listed: before, carried: before.slice(0, 75), departed: [] });
  });

  it('sees new orders at the end on the last page, and reads the next when they spill onto it', () => {
    expect(check(before, [...before, 'new1', 'new2']).pages).toEqual([4, 5]);
    const few = known(90);
    const { pages, decision } = check(few, [...few, 'new1', 'new2']);
    expect(pages).toEqual([4]);
    expect(decision).toMatchObject({ kind: 'settled', departed: [] });
    if (decision.kind === 'settled') expect(decision.listed.slice(-2)).toEqual(['new1', 'new2']);
  });

  it('finds an order that left page 1 in three reads of four pages, by the shift it leaves', () => {
    const listing = before.filter((uuid) => uuid !== 'o7');
    const { pages, decision } = check(before, listing);
    // The last page shows every later order one place early: something before it left. Page 2 shows
    // the same shift, so it was on page 1; page 1 shows the gap.
    expect(pages).toEqual([4, 2, 1]);
    expect(decision).toMatchObject({ kind: 'settled', departed: ['o7'], listed: listing });
  });

  it('sees an order that left the last page there at once', () => {
    const { pages, decision } = check(
      before,
      before.filter((uuid) => uuid !== 'o90'),
    );
    expect(pages).toEqual([4]);
    expect(decision).toMatchObject({ kind: 'settled', departed: ['o90'] });
  });

  it('reads where an order came in the middle (moved to today from another day)', () => {
    const listing = [...before.slice(0, 40), 'moved', ...before.slice(40)];
    const { pages, decision } = check(before, listing);
    expect(pages.length).toBeGreaterThan(1);
    expect(decision).toMatchObject({ kind: 'settled', departed: [], listed: listing });
  });

  it('misses an order that left where another came in the same stretch: the whole walk sees both', () => {
    const listing = [...before.slice(0, 10), 'moved', ...before.slice(11)];
    const { pages, decision } = check(before, listing);
    expect(pages).toEqual([4]);
    // Carried as listed: o10 is still believed there, `moved` unseen, until the next whole walk.
    expect(decision).toMatchObject({ kind: 'settled', departed: [] });
    if (decision.kind === 'settled') expect(decision.carried).toContain('o10');
  });

  it('reads the new last page when the listing shrank past the page it read first', () => {
    const listing = before.slice(30);
    const { pages, decision } = check(before, listing);
    expect(pages[0]).toBe(4);
    expect(decision).toMatchObject({ kind: 'settled', departed: before.slice(0, 30), listed: listing });
  });

  it('gives up on a page out of our order, or holding places past the total', () => {
    const swapped = [...before.slice(0, 80), 'o81', 'o80', ...before.slice(82)];
    expect(decideCheck(before, 100, [page(swapped, 4)])).toEqual({
      kind: 'unsettled',
      reason: 'not in the predicted order',
    });
    expect(decideCheck(before, 90, [page(before, 4)])).toEqual({
      kind: 'unsettled',
      reason: 'a page past the total',
    });
  });

  it('settles every departure and arrival of a busy minute, wherever they fall', () => {
    // Ten orders gone from anywhere, five new at the end: what the listing holds is what the API lists.
    const gone = new Set(['o3', 'o17', 'o26', 'o44', 'o45', 'o51', 'o60', 'o77', 'o88', 'o99']);
    const listing = [...before.filter((uuid) => !gone.has(uuid)), 'n1', 'n2', 'n3', 'n4', 'n5'];
    const { pages, decision } = check(before, listing);
    expect(pages.length).toBeLessThanOrEqual(4);
    expect(decision).toMatchObject({ kind: 'settled', listed: listing });
    if (decision.kind === 'settled') expect(new Set(decision.departed)).toEqual(gone);
  });
});

describe('knownListed', () => {
  const listing: ListingSpec = {
    kind: 'part',
    status: 'pending',
    startDate: '2026-03-10',
    endDate: '2026-03-10',
    establishment: undefined,
  };
  const snapshot = (uuid: string, createdAt: string | undefined, overrides = {}) => {
    const made = snapshotOfInput(makeOrder({ pickup_at: '2026-03-10' }), {
      orderUuid: uuid,
      createdAt,
      ...overrides,
    });
    if (createdAt === undefined) delete made.createdAt;
    return [uuid, made] as const;
  };

  it("orders today's pending orders as the API lists them, without those being looked for", () => {
    const snapshots = new Map([
      snapshot('b', '2026-03-10T09:00:00.000000Z'),
      snapshot('a', '2026-03-10T09:00:00.000000Z'),
      snapshot('c', '2026-03-09T18:00:00.000000Z'),
      snapshot('d', '2026-03-10T10:00:00.000000Z'),
      snapshot('done', '2026-03-10T08:00:00.000000Z', { status: 'completed' }),
      snapshot('thursday', '2026-03-10T08:00:00.000000Z', { pickupDate: '2026-03-12' }),
    ]);
    expect(knownListed(snapshots, listing, new Set(['d']))).toEqual(['c', 'a', 'b']);
  });

  it('orders a listing of several dates by pickup date first, as the API lists them', () => {
    const snapshots = new Map([
      snapshot('late-made', '2026-03-10T07:00:00.000000Z'),
      snapshot('early-made', '2026-03-09T07:00:00.000000Z', { pickupDate: '2026-03-11' }),
      snapshot('first', '2026-03-08T07:00:00.000000Z'),
      snapshot('after', '2026-03-08T07:00:00.000000Z', { pickupDate: '2026-03-13' }),
    ]);
    const twoDays = { ...listing, endDate: '2026-03-11' };
    expect(knownListed(snapshots, twoDays, new Set())).toEqual(['first', 'late-made', 'early-made']);
    // A new order for the first date comes in the middle: the stretch after it no longer balances.
    const before = ['first', 'late-made', 'early-made'];
    expect(check(before, ['first', 'late-made', 'new', 'early-made']).decision).toMatchObject({
      kind: 'settled',
      listed: ['first', 'late-made', 'new', 'early-made'],
    });
  });

  it('cannot tell the order while one lacks its creation time', () => {
    const snapshots = new Map([snapshot('a', '2026-03-10T09:00:00.000000Z'), snapshot('old', undefined)]);
    expect(knownListed(snapshots, listing, new Set())).toBeUndefined();
  });
});
