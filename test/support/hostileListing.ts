// One pending listing broken every way a listing can be while still answering 200, for a rewriting proxy:
// on page 1 a malformed record (its uuid readable) and a uuid listed twice, page 2 empty yet linking on,
// and page 3 with a `meta.total` that moved. What it broke is kept for the test's assertions.
import type { Rewrite } from './rewritingProxy.js';

interface Envelope {
  data: Array<Record<string, unknown>>;
  meta: { current_page: number; total: number };
}

export interface HostileListing {
  rewrite: Rewrite;
  /** The uuid of the record made malformed, once page 1 was served. */
  malformedUuid: string | undefined;
  /** The uuid shown twice on page 1. */
  repeatedUuid: string | undefined;
  /** Pages of the pending listing served, broken or not. */
  pagesServed: Set<number>;
  /** Stops breaking the listing: the records read well again. */
  heal(): void;
}

export function hostilePendingListing(): HostileListing {
  let healed = false;
  const hostile: HostileListing = {
    malformedUuid: undefined,
    repeatedUuid: undefined,
    pagesServed: new Set(),
    heal: () => {
      healed = true;
    },
    rewrite: (url, body) => {
      if (healed || !url.pathname.endsWith('/orders') || url.searchParams.get('status') !== 'pending') {
        return undefined;
      }
      const page = body as Envelope;
      hostile.pagesServed.add(page.meta.current_page);
      switch (page.meta.current_page) {
        case 1: {
          const [first, second] = page.data;
          if (!first || !second || page.data.length < 3) return undefined;
          hostile.malformedUuid = String(first.uuid);
          hostile.repeatedUuid = String(second.uuid);
          // `total` should be a money object; a string is what a server bug would send.
          page.data[0] = { ...first, total: 'twelve euros' };
          page.data[2] = { ...second };
          return page;
        }
        case 2:
          return { ...page, data: [] };
        case 3:
          return { ...page, meta: { ...page.meta, total: page.meta.total + 1 } };
        default:
          return undefined;
      }
    },
  };
  return hostile;
}
