// Builds a catch-up (pure) from the stale order events it stands for, in the order they were recorded:
// counted by type and establishment, with the orders changed after closing and the flagged notes listed
// (the first CATCH_UP_LIST_MAX of each). A catch-up still waiting to be sent can be absorbed into a newer
// one, which then stands for the events of both: a person gets one message, however long the outage.

import { zonedIsoTime } from '../time/zonedTime.js';
import {
  CATCH_UP_EVENT_TYPE,
  CATCH_UP_LIST_MAX,
  type CatchUpAfterClosing,
  type CatchUpData,
  type CatchUpEvent,
  type CatchUpNote,
} from './catchUpEvent.js';
import { catchUpEventId } from './eventId.js';
import { DEFAULT_HIGHLIGHT_WORDS } from './noteHighlights.js';
import type { OrderEvent, OrderEventType } from './orderEvent.js';
import { orderNotes } from './orderNotes.js';
import { changedAt, isStaleAtDetection } from './staleness.js';

export interface StaleEvent {
  event: OrderEvent;
  /** When its change happened at the source (epoch ms), when the API told. */
  sourceTime?: number | undefined;
}

export interface CatchUpInput {
  organization: {
    id: string;
    name: string;
    timeZone?: string | undefined;
    /** The organization's words that flag a note (noteHighlights.ts). @default DEFAULT_HIGHLIGHT_WORDS */
    highlightWords?: readonly string[] | undefined;
  };
  /** The organization's CloudEvents `source`. */
  source: string;
  catchUpAfterMs: number;
  /** When the catch-up is made: its `time`. */
  nowMs: number;
  /** Locally, the one subscriber it is composed for. */
  subscriberId?: string | undefined;
  /** When the organization went unpolled, if that is why the events are stale. */
  unpolled?: { fromMs: number; toMs: number } | undefined;
  /** The stale events, in the order recorded; at least one (with `absorbing`, none is fine). */
  events: readonly StaleEvent[];
  /** A catch-up not sent yet that this one replaces: its events are counted in this one. */
  absorbing?: CatchUpEvent | undefined;
}

export function buildCatchUp(input: CatchUpInput): CatchUpEvent {
  const { organization, nowMs } = input;
  const zone = organization.timeZone;
  const time = (ms: number) => (zone === undefined ? new Date(ms).toISOString() : zonedIsoTime(ms, zone));
  const before = input.absorbing?.data;
  // Loops, not Math.min(...changes): a spread of an outage's events overflows the stack.
  let first = before ? Date.parse(before.first_change_at) : Number.POSITIVE_INFINITY;
  let last = before ? Date.parse(before.last_change_at) : Number.NEGATIVE_INFINITY;
  for (const { event, sourceTime } of input.events) {
    const at = changedAt(event, sourceTime);
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  const events = input.events.map(({ event }) => event);
  const eventIds = [...(before?.event_ids ?? []), ...events.map((event) => event.id)];
  const catchUpAfter = Math.round(input.catchUpAfterMs / 1000);
  const afterClosing = events.filter((event) => event.data.after_closing);
  const notes = notesOf(before?.notes ?? [], events, organization.highlightWords ?? DEFAULT_HIGHLIGHT_WORDS);
  const unpolled = widest(before?.unpolled, input.unpolled, time);
  const data: CatchUpData = {
    organization: {
      id: organization.id,
      name: organization.name,
      ...(zone === undefined ? {} : { time_zone: zone }),
    },
    catch_up_after: catchUpAfter,
    ...(input.subscriberId === undefined ? {} : { subscriber_id: input.subscriberId }),
    ...(unpolled === undefined ? {} : { unpolled }),
    first_change_at: time(first),
    last_change_at: time(last),
    events: eventIds.length,
    found_late:
      (before?.found_late ?? 0) +
      input.events.filter(({ event, sourceTime }) =>
        isStaleAtDetection(event, sourceTime, input.catchUpAfterMs),
      ).length,
    event_ids: eventIds,
    by_type: countBy(
      before?.by_type ?? [],
      events.map((event) => event.type),
    ),
    by_establishment: countBy(
      before?.by_establishment ?? [],
      events.map((event) => event.data.order.establishment.name),
    ),
    types: union<OrderEventType>(
      before?.types ?? [],
      events.map((event) => event.type),
    ),
    establishments: union(
      before?.establishments ?? [],
      events.flatMap((event) => establishmentUuids(event)),
    ),
    statuses: union(
      before?.statuses ?? [],
      events.map((event) => event.data.order.status),
    ),
    payment_methods: union(
      before?.payment_methods ?? [],
      events.map((event) => event.data.order.payment_method),
    ),
    after_closing_count: (before?.after_closing_count ?? 0) + afterClosing.length,
    after_closing: [...(before?.after_closing ?? []), ...afterClosing.map(afterClosingLine)].slice(
      0,
      CATCH_UP_LIST_MAX,
    ),
    notes_count: (before?.notes_count ?? 0) + notes.added,
    notes: notes.listed,
  };
  return {
    specversion: '1.0',
    id: catchUpEventId(organization.id, catchUpAfter, eventIds, input.subscriberId),
    source: input.absorbing?.source ?? input.source,
    type: CATCH_UP_EVENT_TYPE,
    subject: organization.id,
    time: new Date(nowMs).toISOString(),
    datacontenttype: 'application/json',
    data,
  };
}

/** Lower-cased like the config's uuids, the one it is at and the one it left. */
function establishmentUuids(event: OrderEvent): string[] {
  const moved = event.data.changes.flatMap((change) =>
    change.field === 'establishment' && change.from !== null ? [change.from] : [],
  );
  return [event.data.order.establishment.uuid, ...moved].map((uuid) => uuid.toLowerCase());
}

function afterClosingLine(event: OrderEvent): CatchUpAfterClosing {
  const order = event.data.order;
  return {
    order_uuid: order.uuid,
    reference: order.reference,
    establishment: order.establishment.name,
    pickup_date: order.pickup_date,
    type: event.type,
  };
}

/** The flagged notes, one line per order (its latest notes), after those already listed. */
function notesOf(
  listed: readonly CatchUpNote[],
  events: readonly OrderEvent[],
  highlightWords: readonly string[],
) {
  const lines = [...listed];
  // Each order's line by uuid: one look-up per event, so a long outage is folded in one pass.
  const lineOf = new Map(listed.map((line, index) => [line.order_uuid, index]));
  let added = 0;
  for (const event of events) {
    const order = event.data.order;
    // The notes a person must not miss, by the one highlight rule: the order's own first, then its lines'.
    const notes = orderNotes(order, highlightWords)
      .filter((note) => note.flagged)
      .map(({ item, note }) => (item === undefined ? note : `${item.name}: ${note}`));
    if (notes.length === 0) continue;
    const line: CatchUpNote = {
      order_uuid: order.uuid,
      reference: order.reference,
      establishment: order.establishment.name,
      pickup_date: order.pickup_date,
      customer: order.customer.class
        ? `${order.customer.name} (${order.customer.class})`
        : order.customer.name,
      notes,
    };
    const at = lineOf.get(order.uuid);
    if (at !== undefined) lines[at] = line;
    else {
      lineOf.set(order.uuid, lines.length);
      added += 1;
      lines.push(line);
    }
  }
  return { listed: lines.slice(0, CATCH_UP_LIST_MAX), added };
}

function widest(
  before: CatchUpData['unpolled'],
  now: CatchUpInput['unpolled'],
  time: (ms: number) => string,
): CatchUpData['unpolled'] {
  if (now === undefined) return before;
  const fromMs = Math.min(now.fromMs, before ? Date.parse(before.from) : now.fromMs);
  const toMs = Math.max(now.toMs, before ? Date.parse(before.to) : now.toMs);
  return { from: time(fromMs), to: time(toMs) };
}

/** Counts added to those already made; most first, then by name, so the same events always read the same. */
function countBy(
  before: readonly { name: string; count: number }[],
  names: readonly string[],
): { name: string; count: number }[] {
  const counts = new Map(before.map(({ name, count }) => [name, count]));
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

function union<T extends string>(before: readonly T[], values: readonly T[]): T[] {
  return [...new Set([...before, ...values])].sort();
}
