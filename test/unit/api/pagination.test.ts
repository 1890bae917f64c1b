import { describe, expect, it } from 'vitest';
import { ForeignLinkError, PaginationError, type RequestContext } from '../../../shared/api/errors.js';
import type { ListPage, SkippedRecord } from '../../../shared/api/listPage.js';
import { type Listing, walkPages } from '../../../shared/api/pagination.js';

const ORIGIN = 'https://api.example.test';
const PATH = `${ORIGIN}/api/v1/admin/orders`;
const FIRST = new URL(`${PATH}?status=pending`);

interface Rec {
  uuid: string;
}

const recs = (from: number, count: number): Rec[] =>
  Array.from({ length: count }, (_, i) => ({ uuid: `r${from + i}` }));

function envelopePage(
  records: Rec[],
  meta: { page: number; lastPage: number; total: number } | undefined,
  next: string | null | undefined,
  skipped: SkippedRecord[] = [],
): ListPage<Rec> {
  return {
    shape: 'envelope',
    records,
    skipped,
    links: next === undefined ? undefined : { next },
    meta: meta && {
      current_page: meta.page,
      last_page: meta.lastPage,
      total: meta.total,
      per_page: 25,
      from: null,
      to: null,
    },
  };
}

const barePage = (records: Rec[], skipped: SkippedRecord[] = []): ListPage<Rec> => ({
  shape: 'bare',
  records,
  skipped,
  links: undefined,
  meta: undefined,
});

/** Serves pages in order and records which URLs were asked for. */
function serve(pages: Array<ListPage<Rec> | ((url: URL) => ListPage<Rec>)>) {
  const requested: string[] = [];
  const fetchPage = async (url: URL): Promise<ListPage<Rec>> => {
    requested.push(url.href);
    const page = pages[requested.length - 1] ?? pages[pages.length - 1];
    if (!page) throw new Error('no page');
    return typeof page === 'function' ? page(url) : page;
  };
  return { fetchPage, requested };
}

const context = (url: URL): RequestContext => ({
  organization: 'org',
  endpoint: `GET ${url.pathname}${url.search}`,
});
const options = {
  listing: 'pending',
  maxPages: 10,
  context,
  idOf: (record: unknown) => (record as Rec).uuid,
};

function walk(pages: Parameters<typeof serve>[0], maxPages = 10) {
  const server = serve(pages);
  const listing = walkPages<Rec>(FIRST, server.fetchPage, { ...options, maxPages });
  return { listing, requested: server.requested };
}

describe('walkPages', () => {
  it('follows links.next until it is null and collects every record', async () => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 3, total: 60 }, `${PATH}?status=pending&page=2`),
      envelopePage(recs(26, 25), { page: 2, lastPage: 3, total: 60 }, `${PATH}?status=pending&page=3`),
      envelopePage(recs(51, 10), { page: 3, lastPage: 3, total: 60 }, null),
    ]);
    const result = await listing;
    expect(requested).toEqual([FIRST.href, `${PATH}?status=pending&page=2`, `${PATH}?status=pending&page=3`]);
    expect(result).toMatchObject({ pages: 3, total: 60, complete: true, consistent: true, problems: [] });
    expect(result.records).toHaveLength(60);
  });

  it('follows a relative links.next on the same path', async () => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 26 }, '?status=pending&page=2'),
      envelopePage(recs(26, 1), { page: 2, lastPage: 2, total: 26 }, null),
    ]);
    await listing;
    expect(requested[1]).toBe(`${PATH}?status=pending&page=2`);
  });

  it('builds the next URL from page, keeping the filters, when links are absent', async () => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 30 }, undefined),
      envelopePage(recs(26, 5), { page: 2, lastPage: 2, total: 30 }, undefined),
    ]);
    expect((await listing).consistent).toBe(true);
    expect(requested).toEqual([FIRST.href, `${PATH}?status=pending&page=2`]);
  });

  it('stops after the last page given by meta when links.next is null', async () => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 1, total: 25 }, null),
    ]);
    expect((await listing).records).toHaveLength(25);
    expect(requested).toHaveLength(1);
  });

  it('asks for the next page after a full bare page of 25', async () => {
    const { listing, requested } = walk([
      barePage(recs(1, 25)),
      barePage(recs(26, 25)),
      barePage(recs(51, 3)),
    ]);
    const result = await listing;
    expect(requested).toEqual([FIRST.href, `${PATH}?status=pending&page=2`, `${PATH}?status=pending&page=3`]);
    expect(result).toMatchObject({ pages: 3, total: undefined, consistent: true, complete: true });
    expect(result.records).toHaveLength(53);
  });

  it('does not ask further after a bare page shorter than 25', async () => {
    const { listing, requested } = walk([barePage(recs(1, 24))]);
    await listing;
    expect(requested).toHaveLength(1);
  });

  it('counts skipped records towards a full bare page', async () => {
    const skipped = [{ index: 0, uuid: 'bad', problem: 'x' }];
    const { listing, requested } = walk([barePage(recs(1, 24), skipped), barePage([])]);
    await listing;
    expect(requested).toHaveLength(2);
  });

  it('refuses a links.next on another origin without fetching it', async () => {
    const foreign = 'https://evil.example.test/api/v1/admin/orders?page=2';
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 30 }, foreign),
    ]);
    const error = await listing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForeignLinkError);
    expect(requested).toEqual([FIRST.href]);
  });

  it.each([
    ['another port', 'https://api.example.test:8443/api/v1/admin/orders?page=2'],
    ['another scheme', 'http://api.example.test/api/v1/admin/orders?page=2'],
    ['another path', `${ORIGIN}/api/v1/admin/establishments?page=2`],
    ['a protocol-relative link to another host', '//evil.example.test/api/v1/admin/orders?page=2'],
  ])('refuses a links.next on %s', async (_name, next) => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 30 }, next),
    ]);
    await expect(listing).rejects.toBeInstanceOf(ForeignLinkError);
    expect(requested).toHaveLength(1);
  });

  it('raises PaginationError when links.next points back to a page already fetched', async () => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 3, total: 75 }, `${PATH}?status=pending&page=2`),
      envelopePage(recs(26, 25), { page: 2, lastPage: 3, total: 75 }, FIRST.href),
    ]);
    await expect(listing).rejects.toBeInstanceOf(PaginationError);
    expect(requested).toHaveLength(2);
  });

  it('recognizes a link back to page=1 as the first page, which was fetched without page', async () => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 3, total: 75 }, `${PATH}?status=pending&page=2`),
      envelopePage(recs(26, 25), { page: 2, lastPage: 3, total: 75 }, `${PATH}?status=pending&page=1`),
    ]);
    await expect(listing).rejects.toBeInstanceOf(PaginationError);
    expect(requested).toHaveLength(2);
  });

  it('recognizes a link back whose query parameters come in another order', async () => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 3, total: 75 }, `${PATH}?status=pending&page=2`),
      envelopePage(recs(26, 25), { page: 2, lastPage: 3, total: 75 }, `${PATH}?page=2&status=pending`),
    ]);
    await expect(listing).rejects.toBeInstanceOf(PaginationError);
    expect(requested).toHaveLength(2);
  });

  it('raises PaginationError when a page links to itself', async () => {
    const self = `${PATH}?status=pending&page=2`;
    const { listing } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 3, total: 75 }, self),
      envelopePage(recs(26, 25), { page: 2, lastPage: 3, total: 75 }, self),
    ]);
    await expect(listing).rejects.toThrow(/already fetched/);
  });

  it('raises PaginationError instead of fetching more than maxPages pages', async () => {
    const { listing, requested } = walk(
      [
        (url) => {
          const page = Number(url.searchParams.get('page') ?? '1');
          return envelopePage(recs(page * 100, 25), { page, lastPage: 1_000, total: 25_000 }, undefined);
        },
      ],
      3,
    );
    const error = await listing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toContain('more than 3 pages');
    expect(requested).toHaveLength(3);
  });

  it('walks exactly maxPages pages without complaint', async () => {
    const { listing } = walk(
      [
        envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 26 }, undefined),
        envelopePage(recs(26, 1), { page: 2, lastPage: 2, total: 26 }, undefined),
      ],
      2,
    );
    expect((await listing).pages).toBe(2);
  });

  it('marks the walk inconsistent when meta.total changes between pages', async () => {
    const { listing } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 30 }, undefined),
      envelopePage(recs(26, 6), { page: 2, lastPage: 2, total: 31 }, undefined),
    ]);
    const result = await listing;
    expect(result.consistent).toBe(false);
    expect(result.complete).toBe(true);
    expect(result.total).toBe(30);
    expect(result.problems).toEqual([
      { kind: 'inconsistent_walk', listing: 'pending', page: 2, detail: 'meta.total moved from 30 to 31' },
    ]);
  });

  it('marks the walk inconsistent and keeps one copy when a uuid appears twice', async () => {
    const { listing } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 30 }, undefined),
      envelopePage([...recs(25, 1), ...recs(26, 4)], { page: 2, lastPage: 2, total: 30 }, undefined),
    ]);
    const result = await listing;
    expect(result.consistent).toBe(false);
    expect(result.records.map((r) => r.uuid).filter((uuid) => uuid === 'r25')).toHaveLength(1);
    expect(result.problems).toContainEqual({
      kind: 'repeated_uuid',
      listing: 'pending',
      page: 2,
      uuid: 'r25',
      detail: 'listed before in this walk; this copy ignored',
    });
  });

  it('marks the walk inconsistent when the count does not match meta.total', async () => {
    const { listing } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 40 }, undefined),
      envelopePage(recs(26, 5), { page: 2, lastPage: 2, total: 40 }, undefined),
    ]);
    const result = await listing;
    expect(result.consistent).toBe(false);
    expect(result.problems).toEqual([
      {
        kind: 'inconsistent_walk',
        listing: 'pending',
        page: 2,
        detail: 'listed 30 records but meta.total is 40',
      },
    ]);
  });

  it('marks the walk inconsistent when the server answers a different page than asked', async () => {
    const { listing } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 26 }, undefined),
      envelopePage(recs(26, 1), { page: 5, lastPage: 2, total: 26 }, undefined),
    ]);
    const result = await listing;
    expect(result.consistent).toBe(false);
    expect(result.problems).toEqual([
      { kind: 'inconsistent_walk', listing: 'pending', page: 2, detail: 'asked for page 2, got page 5' },
    ]);
  });

  it('stops, rather than looping, when the server ignores page and repeats a full page', async () => {
    const same = recs(1, 25);
    const { listing, requested } = walk([() => barePage(same)]);
    const result = await listing;
    expect(requested).toHaveLength(2);
    expect(result.records).toHaveLength(25);
    expect(result.consistent).toBe(false);
  });

  it('stops when an envelope server ignores page and always answers page 1', async () => {
    const { listing, requested } = walk([
      () => envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 50 }, `${PATH}?status=pending&page=2`),
    ]);
    const result = await listing;
    expect(requested).toHaveLength(2);
    expect(result.records).toHaveLength(25);
    expect(result.consistent).toBe(false);
  });

  it('marks the listing incomplete, not inconsistent, when a record was skipped', async () => {
    const skipped = [{ index: 3, uuid: 'bad-1', problem: 'pickup_at: invalid' }];
    const { listing } = walk([
      envelopePage(recs(1, 24), { page: 1, lastPage: 2, total: 27 }, undefined, skipped),
      envelopePage(recs(25, 1), { page: 2, lastPage: 2, total: 27 }, undefined, [
        { index: 0, uuid: undefined, problem: 'total: required' },
      ]),
    ]);
    const result = await listing;
    expect(result.complete).toBe(false);
    expect(result.consistent).toBe(true);
    expect(result.skipped).toEqual([
      { index: 3, uuid: 'bad-1', problem: 'pickup_at: invalid', page: 1 },
      { index: 0, uuid: undefined, problem: 'total: required', page: 2 },
    ]);
    expect(result.problems).toEqual([
      {
        kind: 'skipped_record',
        listing: 'pending',
        page: 1,
        uuid: 'bad-1',
        detail: 'record #3 on the page: pickup_at: invalid',
      },
      {
        kind: 'skipped_record',
        listing: 'pending',
        page: 2,
        detail: 'record #0 on the page: total: required',
      },
    ]);
  });

  it('reports a malformed record whose uuid was listed before as a uuid listed twice too', async () => {
    const { listing } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 26 }, undefined),
      envelopePage([], { page: 2, lastPage: 2, total: 26 }, undefined, [
        { index: 0, uuid: 'r3', problem: 'total: required' },
      ]),
    ]);
    const result = await listing;
    expect(result.consistent).toBe(false);
    expect(result.problems.map((p) => [p.kind, p.page, p.uuid])).toEqual([
      ['skipped_record', 2, 'r3'],
      ['repeated_uuid', 2, 'r3'],
    ]);
  });

  it('marks the walk inconsistent when a page is empty yet links to a next one', async () => {
    const { listing, requested } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 3, total: 50 }, `${PATH}?status=pending&page=2`),
      envelopePage([], { page: 2, lastPage: 3, total: 50 }, `${PATH}?status=pending&page=3`),
      envelopePage(recs(26, 25), { page: 3, lastPage: 3, total: 50 }, null),
    ]);
    const result = await listing;
    // It walks on: what the later pages hold are facts, only absence cannot be concluded.
    expect(requested).toHaveLength(3);
    expect(result.records).toHaveLength(50);
    expect(result).toMatchObject({ complete: true, consistent: false });
    expect(result.problems).toEqual([
      {
        kind: 'empty_page_with_more',
        listing: 'pending',
        page: 2,
        detail: 'no record on the page, yet it links to a next one',
      },
    ]);
  });

  it('finds nothing wrong with an empty last page', async () => {
    const { listing } = walk([
      envelopePage(recs(1, 25), { page: 1, lastPage: 2, total: 25 }, `${PATH}?status=pending&page=2`),
      envelopePage([], { page: 2, lastPage: 2, total: 25 }, null),
    ]);
    expect((await listing).problems).toEqual([]);
  });

  it('returns an empty, consistent listing for an empty first page', async () => {
    const result: Listing<Rec> = await walk([envelopePage([], { page: 1, lastPage: 1, total: 0 }, null)])
      .listing;
    expect(result).toMatchObject({ records: [], pages: 1, total: 0, complete: true, consistent: true });
  });
});
