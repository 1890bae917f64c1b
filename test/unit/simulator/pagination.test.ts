import { describe, expect, it } from 'vitest';
import { MetaSchema } from '../../../shared/api/envelope.js';
import { PAGE_SIZE, pageSlice, pageUrl, paginate } from '../../../simulator/pagination.js';

const PATH = 'http://127.0.0.1:4010/api/v1/admin/orders';
const items = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

describe('paginate', () => {
  it('cuts pages of 25 and describes each with Laravel meta', () => {
    const page = paginate(items(60), 2, { path: PATH, query: new URLSearchParams() });
    expect(page.data).toEqual(items(60).slice(25, 50));
    expect(page.meta).toMatchObject({
      current_page: 2,
      from: 26,
      to: 50,
      last_page: 3,
      per_page: PAGE_SIZE,
      total: 60,
      path: PATH,
    });
    expect(MetaSchema.safeParse(page.meta).success).toBe(true);
    expect(page.links).toEqual({
      first: `${PATH}?page=1`,
      last: `${PATH}?page=3`,
      prev: `${PATH}?page=1`,
      next: `${PATH}?page=3`,
    });
  });

  it('gives an empty list one page with from and to null', () => {
    const page = paginate([], 1, { path: PATH, query: new URLSearchParams() });
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ from: null, to: null, last_page: 1, total: 0, current_page: 1 });
    expect(page.links.prev).toBeNull();
    expect(page.links.next).toBeNull();
  });

  it('answers a page beyond the last with no data, a prev link and no next link', () => {
    const page = paginate(items(30), 5, { path: PATH, query: new URLSearchParams('status=canceled') });
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 5, from: null, to: null, last_page: 2, total: 30 });
    expect(page.links.prev).toBe(`${PATH}?status=canceled&page=4`);
    expect(page.links.next).toBeNull();
  });

  it('keeps every sent parameter in its place and replaces page where it was', () => {
    const query = new URLSearchParams('status=completed&page=1&start_date=2026-03-01');
    expect(pageUrl({ path: PATH, query }, 3)).toBe(`${PATH}?status=completed&page=3&start_date=2026-03-01`);
    expect(pageUrl({ path: PATH, query: new URLSearchParams('payment_method_type=card') }, 2)).toBe(
      `${PATH}?payment_method_type=card&page=2`,
    );
  });

  it('lists every page button when there are few pages and elides the middle when there are many', () => {
    const few = paginate(items(75), 2, { path: PATH, query: new URLSearchParams() }).meta.links;
    expect(few.map((button) => button.label)).toEqual(['&laquo; Previous', '1', '2', '3', 'Next &raquo;']);
    expect(few.find((button) => button.active)?.label).toBe('2');

    const many = paginate(items(25 * 30), 15, { path: PATH, query: new URLSearchParams() }).meta.links;
    expect(many.map((button) => button.label)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '...',
      '12',
      '13',
      '14',
      '15',
      '16',
      '17',
      '18',
      '...',
      '29',
      '30',
      'Next &raquo;',
    ]);
    expect(many.find((button) => button.label === '...')?.url).toBeNull();
  });

  it('slices the bare form into the same pages', () => {
    expect(pageSlice(items(60), 3)).toEqual(items(60).slice(50));
    expect(pageSlice(items(60), 4)).toEqual([]);
  });
});
