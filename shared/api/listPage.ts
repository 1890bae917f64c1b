// Parses one page of a list response record by record, in the envelope or as a bare array, so that a
// malformed record is skipped and reported instead of failing the whole page.
import type * as z from 'zod';
import { type Links, ListEnvelopeSchema, type Meta } from './envelope.js';

export interface SkippedRecord {
  /** Position on the page. */
  index: number;
  /** The record's uuid when it was readable. */
  uuid: string | undefined;
  problem: string;
}

export interface ListPage<T> {
  shape: 'envelope' | 'bare';
  records: T[];
  skipped: SkippedRecord[];
  links: Links | undefined;
  meta: Meta | undefined;
}

export type ListPageResult<T> = { ok: true; page: ListPage<T> } | { ok: false; problem: string };

export function parseListPage<T>(body: unknown, recordSchema: z.ZodType<T>): ListPageResult<T> {
  let shape: ListPage<T>['shape'];
  let rawRecords: unknown[];
  let links: Links | undefined;
  let meta: Meta | undefined;
  if (Array.isArray(body)) {
    shape = 'bare';
    rawRecords = body;
  } else {
    const envelope = ListEnvelopeSchema.safeParse(body);
    if (!envelope.success)
      return { ok: false, problem: `not a list envelope (${firstIssue(envelope.error)})` };
    if (!envelope.data.success) return { ok: false, problem: 'envelope says success: false' };
    shape = 'envelope';
    rawRecords = envelope.data.data;
    links = envelope.data.links;
    meta = envelope.data.meta;
  }
  const records: T[] = [];
  const skipped: SkippedRecord[] = [];
  rawRecords.forEach((raw, index) => {
    const parsed = recordSchema.safeParse(raw);
    if (parsed.success) records.push(parsed.data);
    else skipped.push({ index, uuid: readableUuid(raw), problem: firstIssue(parsed.error) });
  });
  return { ok: true, page: { shape, records, skipped, links, meta } };
}

/** The first zod issue as `path: message`, short enough for one log line. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
  return path ? `${path.replace(/^\./, '')}: ${issue.message}` : issue.message;
}

function readableUuid(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const uuid = (raw as { uuid?: unknown }).uuid;
  return typeof uuid === 'string' && uuid.length > 0 && uuid.length <= 64 ? uuid : undefined;
}
