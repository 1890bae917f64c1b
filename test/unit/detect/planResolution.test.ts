import { describe, expect, it } from 'vitest';
import type { ListingSpec } from '../../../shared/detect/listingSpec.js';
import {
  planResolutionRound,
  type ResolutionRoundInput,
  resolutionOrder,
  type VanishedOrder,
} from '../../../shared/detect/planResolution.js';
import { orderUuid } from '../../support/orderFactory.js';

const EST_A = 'e5a1b2c3-0000-4000-8000-00000000000a';
const EST_B = 'e5a1b2c3-0000-4000-8000-00000000000b';

function vanished(n: number, overrides: Partial<VanishedOrder> = {}): VanishedOrder {
  return {
    uuid: orderUuid(n),
    pickupDate: '2026-11-20',
    status: 'pending',
    establishment: EST_A,
    ...overrides,
  };
}

function round(overrides: Partial<ResolutionRoundInput> = {}) {
  return planResolutionRound({ unresolved: [], searched: new Map(), sizeOf: () => 0, ...overrides });
}

function searched(entries: Record<string, string[]>): Map<string, Set<string>> {
  return new Map(Object.entries(entries).map(([uuid, statuses]) => [uuid, new Set(statuses)]));
}

describe('planResolutionRound', () => {
  it('looks for a vanished pending order in completed first, on its date at its establishment', () => {
    const order = vanished(1);
    expect(round({ unresolved: [order], searched: searched({ [order.uuid]: ['pending'] }) })).toEqual([
      {
        listing: {
          kind: 'narrow',
          status: 'completed',
          startDate: '2026-11-20',
          endDate: '2026-11-20',
          establishment: EST_A,
        },
        key: `completed:2026-11-20@${EST_A}`,
        purpose: 'resolve',
        fromPage: 1,
        maxPages: undefined,
        estimatedRequests: 1,
      },
    ]);
  });

  it('looks in canceled once completed was searched', () => {
    const order = vanished(1);
    const plan = round({
      unresolved: [order],
      searched: searched({ [order.uuid]: ['pending', 'completed'] }),
    });
    expect(plan.map((walk) => walk.listing.status)).toEqual(['canceled']);
  });

  it('looks in archived once completed and canceled were searched', () => {
    const order = vanished(1);
    const plan = round({
      unresolved: [order],
      searched: searched({ [order.uuid]: ['pending', 'completed', 'canceled'] }),
    });
    expect(plan.map((walk) => walk.listing.status)).toEqual(['archived']);
  });

  it('never looks for an order in its own status, even when that was not marked searched', () => {
    // An order last seen archived (it only ever leaves the window) is looked for in every status; with
    // completed and canceled searched, archived comes next, but that is its own.
    const order = vanished(1, { status: 'archived' });
    const plan = round({
      unresolved: [order],
      searched: searched({ [order.uuid]: ['completed', 'canceled'] }),
    });
    expect(plan.map((walk) => walk.listing.status)).toEqual(['pending']);
  });

  it('looks for an order that left completed in archived, canceled, then pending', () => {
    const order = vanished(1, { status: 'completed' });
    const next = (already: string[]) =>
      round({ unresolved: [order], searched: searched({ [order.uuid]: already }) }).map(
        (walk) => walk.listing.status,
      );
    expect(next([])).toEqual(['archived']);
    expect(next(['archived'])).toEqual(['canceled']);
    expect(next(['archived', 'canceled'])).toEqual(['pending']);
    expect(next(['archived', 'canceled', 'pending'])).toEqual([]);
  });

  it('looks for an order that left canceled in archived first', () => {
    const plan = round({ unresolved: [vanished(1, { status: 'canceled' })] });
    expect(plan.map((walk) => walk.listing.status)).toEqual(['archived']);
  });

  it('plans nothing when every order was searched everywhere', () => {
    const a = vanished(1);
    const b = vanished(2, { status: 'canceled' });
    const everywhere = ['pending', 'completed', 'canceled', 'archived'];
    expect(
      round({ unresolved: [a, b], searched: searched({ [a.uuid]: everywhere, [b.uuid]: everywhere }) }),
    ).toEqual([]);
  });

  it('still plans for the other orders when one was searched everywhere', () => {
    const done = vanished(1);
    const open = vanished(2, { pickupDate: '2026-11-21' });
    const plan = round({
      unresolved: [done, open],
      searched: searched({ [done.uuid]: ['pending', 'completed', 'canceled', 'archived'] }),
    });
    expect(plan.map((walk) => walk.key)).toEqual([`completed:2026-11-21@${EST_A}`]);
  });

  it('plans nothing when there is nothing unresolved', () => {
    expect(round()).toEqual([]);
  });

  it('gives orders sharing status, date and establishment one walk', () => {
    const plan = round({ unresolved: [vanished(1), vanished(2), vanished(3)] });
    expect(plan.map((walk) => walk.key)).toEqual([`completed:2026-11-20@${EST_A}`]);
  });

  it('gives orders on another date or at another establishment their own walk', () => {
    const plan = round({
      unresolved: [
        vanished(1),
        vanished(2, { pickupDate: '2026-11-21' }),
        vanished(3, { establishment: EST_B }),
      ],
    });
    expect(plan.map((walk) => walk.key).sort()).toEqual(
      [
        `completed:2026-11-20@${EST_A}`,
        `completed:2026-11-21@${EST_A}`,
        `completed:2026-11-20@${EST_B}`,
      ].sort(),
    );
  });

  it('gives orders on one date their own walk per status they are next looked for in', () => {
    const a = vanished(1);
    const b = vanished(2);
    const plan = round({ unresolved: [a, b], searched: searched({ [b.uuid]: ['completed'] }) });
    expect(plan.map((walk) => walk.key).sort()).toEqual(
      [`canceled:2026-11-20@${EST_A}`, `completed:2026-11-20@${EST_A}`].sort(),
    );
  });

  it('estimates each walk’s requests from sizeOf its listing', () => {
    const sizes: Record<string, number> = { '2026-11-20': 26, '2026-11-21': 80 };
    const asked: ListingSpec[] = [];
    const plan = round({
      unresolved: [vanished(1), vanished(2, { pickupDate: '2026-11-21' })],
      sizeOf: (listing) => {
        asked.push(listing);
        return sizes[listing.startDate] ?? 0;
      },
    });
    expect(Object.fromEntries(plan.map((walk) => [walk.listing.startDate, walk.estimatedRequests]))).toEqual({
      '2026-11-20': 2,
      '2026-11-21': 4,
    });
    expect(asked.map((listing) => listing.status)).toEqual(['completed', 'completed']);
  });
});

describe('resolutionOrder', () => {
  it('gives completed, canceled, then archived for an order that left pending', () => {
    expect(resolutionOrder('pending')).toEqual(['completed', 'canceled', 'archived']);
  });

  it('gives archived first for an order that left completed or canceled, then the other terminal status', () => {
    expect(resolutionOrder('completed')).toEqual(['archived', 'canceled', 'pending']);
    expect(resolutionOrder('canceled')).toEqual(['archived', 'completed', 'pending']);
  });

  it('never names the status a pending, completed or canceled order left', () => {
    for (const from of ['pending', 'completed', 'canceled']) {
      expect(resolutionOrder(from)).not.toContain(from);
    }
  });

  it('names every status, likeliest first, for an order that left any other status', () => {
    // The round skips the order's own status itself (see planResolutionRound above).
    expect(resolutionOrder('archived')).toEqual(['completed', 'canceled', 'archived', 'pending']);
  });

  describe('with the payment method the order was last seen paid with', () => {
    const card = (n: number, overrides: Partial<VanishedOrder> = {}) =>
      vanished(n, { paymentMethod: 'card', ...overrides });

    it('looks among the orders paid the same way first, sized by the snapshots paid that way', () => {
      const order = card(1);
      const sizes = (listing: ListingSpec) =>
        listing.kind === 'narrow' && listing.paymentMethod === 'card' ? 30 : 100;
      expect(
        round({ unresolved: [order], searched: searched({ [order.uuid]: ['pending'] }), sizeOf: sizes }),
      ).toEqual([
        {
          listing: {
            kind: 'narrow',
            status: 'completed',
            startDate: '2026-11-20',
            endDate: '2026-11-20',
            establishment: EST_A,
            paymentMethod: 'card',
          },
          key: `completed:2026-11-20@${EST_A}/card`,
          purpose: 'resolve',
          fromPage: 1,
          maxPages: undefined,
          estimatedRequests: 2,
        },
      ]);
    });

    it('tries every likely status paid that way before the listings of every payment method', () => {
      const order = card(1);
      const tried: string[] = ['pending'];
      const keys: string[] = [];
      for (;;) {
        const [walk] = round({ unresolved: [order], searched: searched({ [order.uuid]: tried }) });
        if (!walk) break;
        keys.push(walk.key.replace(`@${EST_A}`, ''));
        tried.push(walk.key.includes('/') ? `${walk.listing.status}/card` : walk.listing.status);
      }
      expect(keys).toEqual([
        'completed:2026-11-20/card',
        'canceled:2026-11-20/card',
        'archived:2026-11-20/card',
        'completed:2026-11-20',
        'canceled:2026-11-20',
        'archived:2026-11-20',
      ]);
    });

    // Its payment method changed as it completed: completed/card, canceled/card and archived/card were
    // walked whole without it, and that proves nothing: completed among every payment method comes next.
    it('looks among every payment method once the narrowed listings missed an order whose payment changed', () => {
      const order = card(1);
      const plan = round({
        unresolved: [order],
        searched: searched({ [order.uuid]: ['pending', 'completed/card', 'canceled/card', 'archived/card'] }),
      });
      expect(plan.map((walk) => walk.key)).toEqual([`completed:2026-11-20@${EST_A}`]);
    });

    it('skips a narrowed look-up of a status already searched among every payment method', () => {
      const order = card(1);
      const plan = round({
        unresolved: [order],
        searched: searched({ [order.uuid]: ['pending', 'completed'] }),
      });
      expect(plan.map((walk) => walk.key)).toEqual([`canceled:2026-11-20@${EST_A}/card`]);
    });

    it('looks among every payment method at once for an order paid in a way the filter does not know', () => {
      const order = vanished(1, { paymentMethod: 'voucher' });
      const plan = round({ unresolved: [order], searched: searched({ [order.uuid]: ['pending'] }) });
      expect(plan.map((walk) => walk.key)).toEqual([`completed:2026-11-20@${EST_A}`]);
    });

    it('gives orders paid differently on one date and establishment a listing each', () => {
      const orders = [card(1), card(2), card(3, { paymentMethod: 'cash' })];
      const plan = round({ unresolved: orders });
      expect(plan.map((walk) => walk.key)).toEqual([
        `completed:2026-11-20@${EST_A}/card`,
        `completed:2026-11-20@${EST_A}/cash`,
      ]);
    });

    it('tries last, next cycle, the narrowed places earlier cycles missed in', () => {
      const order = card(1);
      const plan = round({
        unresolved: [order],
        searched: searched({ [order.uuid]: ['pending'] }),
        searchedBefore: new Map([[order.uuid, ['completed/card']]]),
      });
      expect(plan.map((walk) => walk.key)).toEqual([`canceled:2026-11-20@${EST_A}/card`]);
    });

    it('probes the page the order should be on first, and leaves the rest of that listing after the next status', () => {
      const order = card(1);
      const tried: string[] = ['pending'];
      const walks: string[] = [];
      const pageOf = (_order: VanishedOrder, listing: ListingSpec) =>
        listing.status === 'completed' ? 3 : 1;
      for (;;) {
        const [walk] = round({ unresolved: [order], searched: searched({ [order.uuid]: tried }), pageOf });
        if (!walk) break;
        const place = walk.key.includes('/') ? `${walk.listing.status}/card` : walk.listing.status;
        walks.push(
          `${walk.key.replace(`@${EST_A}`, '')} from ${walk.fromPage} for ${walk.maxPages ?? 'all'}`,
        );
        tried.push(walk.fromPage > 1 ? `${place}#${walk.fromPage}` : place);
      }
      expect(walks).toEqual([
        'completed:2026-11-20/card from 3 for 1',
        'canceled:2026-11-20/card from 1 for all',
        'completed:2026-11-20/card from 1 for all',
        'archived:2026-11-20/card from 1 for all',
        'completed:2026-11-20 from 1 for all',
        'canceled:2026-11-20 from 1 for all',
        'archived:2026-11-20 from 1 for all',
      ]);
    });

    it('never probes a listing of every payment method: it must be walked whole to prove anything', () => {
      const order = vanished(1);
      const plan = round({
        unresolved: [order],
        searched: searched({ [order.uuid]: ['pending'] }),
        pageOf: () => 3,
      });
      expect(plan.map((walk) => [walk.key, walk.fromPage])).toEqual([[`completed:2026-11-20@${EST_A}`, 1]]);
    });
  });
});
