// What can be wrong with a listing the API answered without error: a record skipped as malformed, pages
// that disagree with each other, a uuid listed twice, an empty page that says more follow. Each names the
// listing, the page and the order when its uuid was readable, and never quotes a record's values (they may
// be contact details): the detail names fields and figures of the listing only.
import * as z from 'zod';
import { counted } from '../text/counted.js';

export const LISTING_PROBLEM_KINDS = [
  'skipped_record',
  'inconsistent_walk',
  'repeated_uuid',
  'empty_page_with_more',
  'unread_listing',
] as const;

export const ListingProblemSchema = z.object({
  kind: z.enum(LISTING_PROBLEM_KINDS),
  /** The listing: a poll cycle's listing key (`pending`, `completed[2026-11-20..2026-11-21]`), or the request. */
  listing: z.string(),
  page: z.number().int().positive(),
  /** The record's uuid (an order's, an establishment's in the establishments listing), when readable. */
  uuid: z.string().optional(),
  /** One short clause: the field that failed, the figures that disagree. */
  detail: z.string(),
});
export type ListingProblem = z.infer<typeof ListingProblemSchema>;
export type ListingProblemKind = ListingProblem['kind'];

/** Each kind in words, one and many. */
const KIND_WORDS: Record<ListingProblemKind, [string, string]> = {
  skipped_record: ['skipped malformed record', 'skipped malformed records'],
  inconsistent_walk: ['inconsistent walk', 'inconsistent walks'],
  repeated_uuid: ['uuid listed twice', 'uuids listed twice'],
  empty_page_with_more: ['empty page with more after it', 'empty pages with more after them'],
  unread_listing: ['listing not read', 'listings not read'],
};

/**
 * `listing pending, page 2, order <uuid>: skipped malformed record (customer: …)`, for a warning line; in
 * the establishments listing the record is an establishment.
 */
export function describeListingProblem(problem: ListingProblem): string {
  const noun = problem.listing === ESTABLISHMENTS_LISTING ? 'establishment' : 'order';
  const record = problem.uuid === undefined ? '' : `, ${noun} ${problem.uuid}`;
  return `listing ${problem.listing}, page ${problem.page}${record}: ${KIND_WORDS[problem.kind][0]} (${problem.detail})`;
}

/** The poll cycle's name for GET /establishments, in its reports and problems. */
export const ESTABLISHMENTS_LISTING = 'establishments';

/** `2 skipped malformed records, 1 inconsistent walk`: many problems counted by kind. */
export function countListingProblems(problems: readonly ListingProblem[]): string {
  return LISTING_PROBLEM_KINDS.flatMap((kind) => {
    const count = problems.filter((problem) => problem.kind === kind).length;
    if (count === 0) return [];
    return [counted(count, ...KIND_WORDS[kind])];
  }).join(', ');
}
