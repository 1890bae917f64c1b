// Laravel-style pagination: fixed pages of 25, `links` and `meta` with absolute URLs that keep every
// query parameter the client sent, and the windowed `meta.links` list of page buttons.

export const PAGE_SIZE = 25;

export interface PageLinks {
  first: string;
  last: string;
  prev: string | null;
  next: string | null;
}

export interface PageButton {
  url: string | null;
  label: string;
  active: boolean;
}

export interface PageMeta {
  current_page: number;
  from: number | null;
  to: number | null;
  last_page: number;
  per_page: number;
  total: number;
  path: string;
  links: PageButton[];
}

export interface Page<T> {
  data: T[];
  links: PageLinks;
  meta: PageMeta;
}

export interface ListingAddress {
  /** Absolute URL of the listing without a query. */
  path: string;
  /** The query as the client sent it. */
  query: URLSearchParams;
}

/** Buttons on each side of the current page before the list is cut with "...". */
const ON_EACH_SIDE = 3;

export function paginate<T>(items: readonly T[], page: number, address: ListingAddress): Page<T> {
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const start = (page - 1) * PAGE_SIZE;
  const data = items.slice(start, start + PAGE_SIZE);
  const url = (target: number) => pageUrl(address, target);
  return {
    data,
    links: {
      first: url(1),
      last: url(lastPage),
      prev: page > 1 ? url(page - 1) : null,
      next: page < lastPage ? url(page + 1) : null,
    },
    meta: {
      current_page: page,
      from: data.length > 0 ? start + 1 : null,
      to: data.length > 0 ? start + data.length : null,
      last_page: lastPage,
      per_page: PAGE_SIZE,
      total,
      path: address.path,
      links: pageButtons(page, lastPage, url),
    },
  };
}

/** Slice of a bare (unpaginated-envelope) listing: the same pages, without links or meta. */
export function pageSlice<T>(items: readonly T[], page: number): T[] {
  return items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
}

/** The listing URL for `page`: the sent parameters in their order, `page` replaced in place or appended. */
export function pageUrl(address: ListingAddress, page: number): string {
  const url = new URL(address.path);
  const query = new URLSearchParams(address.query);
  query.set('page', String(page));
  url.search = query.toString();
  return url.href;
}

function pageButtons(current: number, lastPage: number, url: (page: number) => string): PageButton[] {
  const button = (page: number): PageButton => ({
    url: url(page),
    label: String(page),
    active: page === current,
  });
  const gap: PageButton = { url: null, label: '...', active: false };
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => button(from + i));
  const window = ON_EACH_SIDE * 2;
  let middle: PageButton[];
  if (lastPage < window + 8) middle = range(1, lastPage);
  else if (current <= window) middle = [...range(1, window + 2), gap, ...range(lastPage - 1, lastPage)];
  else if (current > lastPage - window)
    middle = [...range(1, 2), gap, ...range(lastPage - (window + 1), lastPage)];
  else {
    middle = [
      ...range(1, 2),
      gap,
      ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE),
      gap,
      ...range(lastPage - 1, lastPage),
    ];
  }
  return [
    { url: current > 1 ? url(current - 1) : null, label: '&laquo; Previous', active: false },
    ...middle,
    { url: current < lastPage ? url(current + 1) : null, label: 'Next &raquo;', active: false },
  ];
}
