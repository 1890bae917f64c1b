// Walks every page of a listing. Follows `links.next` only when it stays on the listing's origin and path,
// else builds the next URL from `page`; guards against loops and runaway walks; and reports whether the
// walk was consistent enough to draw conclusions from (stable `meta.total`, no uuid twice, no empty page
// before the end), with every problem it met. A walk may start at a later page (a sweep resumed across
// cycles), and may stop before a page it cannot afford or once it found what it looked for: it then says
// so, and keeps what it learned of the listing's size.
import { ForeignLinkError, PaginationError, type RequestContext } from './errors.js';
import type { ListingProblem } from './listingProblem.js';
import type { ListPage, SkippedRecord } from './listPage.js';

/** The API's fixed page size. */
export const PAGE_SIZE = 25;

export interface Listing<T> {
  records: T[];
  /** Records that failed validation, with the page they were on. */
  skipped: Array<SkippedRecord & { page: number }>;
  pages: number;
  /** `meta.total` of the first page, when the server sent one. */
  total: number | undefined;
  /** `meta.last_page` of the first page fetched, when the server sent one. */
  lastPage: number | undefined;
  /** The first page this walk fetched (1 unless it resumed a walk). */
  fromPage: number;
  /** The walk stopped before the listing's end (no budget for the rest, or what it sought was found). */
  stoppedEarly: boolean;
  /** Every record on every page was valid. */
  complete: boolean;
  /**
   * The pages agree with each other: same total throughout, no uuid twice, no empty page before the end,
   * count matches total.
   */
  consistent: boolean;
  /** Every problem met, in the order met: skipped records as well as what made the walk inconsistent. */
  problems: ListingProblem[];
}

export interface WalkOptions<T = unknown> {
  /** Names the listing in its problems. */
  listing: string;
  maxPages: number;
  context: (url: URL) => RequestContext;
  /** Identity of a record, for duplicate detection. */
  idOf: (record: unknown) => string | undefined;
  /** Page to start at. @default 1 */
  fromPage?: number;
  /**
   * Asked before each page after the first, with the listing's last page when known: false stops the walk
   * there (say, no budget for the rest), so a walk that cannot finish goes no further than its first page.
   */
  mayContinue?: (next: { page: number; lastPage: number | undefined }) => boolean | Promise<boolean>;
  /** Stops the walk once it returns true for the records so far (a look-up that found what it sought). */
  foundEnough?: (records: readonly T[]) => boolean;
}

/** How far to walk a listing: a resumed start, a stop before a page that cannot be afforded, an early stop. */
export type ListingWalk<T> = Partial<
  Pick<WalkOptions<T>, 'listing' | 'fromPage' | 'maxPages' | 'mayContinue' | 'foundEnough'>
>;

export async function walkPages<T>(
  firstUrl: URL,
  fetchPage: (url: URL) => Promise<ListPage<T>>,
  options: WalkOptions<T>,
): Promise<Listing<T>> {
  const records: T[] = [];
  const skipped: Listing<T>['skipped'] = [];
  const problems: ListingProblem[] = [];
  const seenIds = new Set<string>();
  const fetched = new Set<string>();
  const fromPage = options.fromPage ?? 1;
  let total: number | undefined;
  let lastPage: number | undefined;
  let stoppedEarly = false;
  /** A count cannot match a total that moved; that move is the problem already reported. */
  let totalMoved = false;
  let url: URL | undefined = pageUrl(firstUrl, fromPage);
  let pageNumber = fromPage - 1;

  while (url) {
    if (pageNumber >= fromPage) {
      const next = { page: pageNumber + 1, lastPage };
      if ((options.foundEnough?.(records) ?? false) || !((await options.mayContinue?.(next)) ?? true)) {
        stoppedEarly = true;
        break;
      }
    }
    if (pageNumber - fromPage + 1 >= options.maxPages) {
      throw new PaginationError(
        `listing has more than ${options.maxPages} pages; narrow the filters or raise the page limit`,
        options.context(url),
      );
    }
    pageNumber += 1;
    fetched.add(pageKey(url));
    const page = await fetchPage(url);
    const problem = (kind: ListingProblem['kind'], detail: string, uuid?: string) =>
      problems.push({ kind, listing: options.listing, page: pageNumber, ...(uuid ? { uuid } : {}), detail });
    /** False, and reported, when the uuid was listed before in this walk. */
    const firstSighting = (uuid: string | undefined, detail: string) => {
      if (uuid === undefined) return true;
      if (!seenIds.has(uuid)) {
        seenIds.add(uuid);
        return true;
      }
      problem('repeated_uuid', detail, uuid);
      return false;
    };
    let newRecords = 0;
    for (const record of page.records) {
      if (!firstSighting(options.idOf(record), 'listed before in this walk; this copy ignored')) continue;
      records.push(record);
      newRecords += 1;
    }
    for (const record of page.skipped) {
      skipped.push({ ...record, page: pageNumber });
      problem('skipped_record', `record #${record.index} on the page: ${record.problem}`, record.uuid);
      firstSighting(record.uuid, 'listed before in this walk, malformed this time');
    }
    if (page.meta) {
      lastPage ??= page.meta.last_page;
      if (total === undefined) total = page.meta.total;
      else if (page.meta.total !== total) {
        totalMoved = true;
        problem('inconsistent_walk', `meta.total moved from ${total} to ${page.meta.total}`);
      }
      if (page.meta.current_page !== pageNumber) {
        problem('inconsistent_walk', `asked for page ${pageNumber}, got page ${page.meta.current_page}`);
      }
    }
    // A full page that added nothing new means the server ignores `page`: stop rather than loop.
    if (newRecords === 0 && page.records.length > 0) break;
    url = nextPageUrl(page, url, firstUrl, pageNumber, options.context);
    if (url && page.records.length + page.skipped.length === 0) {
      // Records may have been left off this page: nothing may be concluded from what the walk did not see.
      problem('empty_page_with_more', 'no record on the page, yet it links to a next one');
    }
    if (url && fetched.has(pageKey(url))) {
      throw new PaginationError(`links.next points back to a page already fetched`, options.context(url));
    }
  }

  const listed = records.length + skipped.length;
  const whole = fromPage === 1 && !stoppedEarly;
  if (whole && total !== undefined && listed !== total && !totalMoved) {
    problems.push({
      kind: 'inconsistent_walk',
      listing: options.listing,
      page: pageNumber,
      detail: `listed ${listed} records but meta.total is ${total}`,
    });
  }
  return {
    records,
    skipped,
    pages: pageNumber - fromPage + 1,
    total,
    lastPage,
    fromPage,
    stoppedEarly,
    complete: skipped.length === 0,
    consistent: !problems.some((p) => p.kind !== 'skipped_record'),
    problems,
  };
}

function pageUrl(firstUrl: URL, page: number): URL {
  if (page === 1) return firstUrl;
  const url = new URL(firstUrl);
  url.searchParams.set('page', String(page));
  return url;
}

/**
 * Which page a URL asks for, so a link back is recognized however it is spelled: `?page=1` is the same
 * page as no `page` at all, and the order of the query parameters does not matter.
 */
function pageKey(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  if (!params.has('page')) params.set('page', '1');
  params.sort();
  return `${url.origin}${url.pathname}?${params}`;
}

function nextPageUrl<T>(
  page: ListPage<T>,
  current: URL,
  firstUrl: URL,
  pageNumber: number,
  context: (url: URL) => RequestContext,
): URL | undefined {
  const next = page.links?.next;
  if (next) {
    const url = URL.parse(next, current.href);
    if (!url || url.origin !== firstUrl.origin || url.pathname !== firstUrl.pathname) {
      throw new ForeignLinkError(context(current), next);
    }
    return url;
  }
  const hasMore = page.meta
    ? page.meta.current_page < page.meta.last_page
    : // Without pagination keys (the old bare form), only a full page can have a successor. One longer than
      // the fixed page size was not paged at all (the establishments sample has no keys): it is the whole
      // listing, and a page 2 of it would only repeat it.
      page.records.length + page.skipped.length === PAGE_SIZE;
  if (!hasMore) return undefined;
  const url = new URL(firstUrl);
  url.searchParams.set('page', String(pageNumber + 1));
  return url;
}
