// The notes of one order as a kitchen reads them (pure): the order's own note, then each item line's, the
// ones that name an allergy or a diet first (noteHighlights.ts). Empty notes say nothing and are left out.
// Slack, e-mail and the prep summary list notes from here; each escapes and fits them to its medium.
import { flaggedFirst, noteHighlighter } from './noteHighlights.js';

/** What an order needs for its notes: an event's order and an API order both have it. */
export interface NotedOrder {
  notes?: string | null | undefined;
  items: readonly { sku?: string | undefined; name: string; notes?: string | null | undefined }[];
}

export interface OrderNote {
  /** The item line the note is on; absent for the order's own note. */
  item?: { sku: string; name: string };
  note: string;
  /** The note names one of the organization's highlight words. */
  flagged: boolean;
}

/** The order's notes, flagged ones first; the order's own note before its lines' within each group. */
export function orderNotes(order: NotedOrder, highlightWords: readonly string[]): OrderNote[] {
  const flags = noteHighlighter(highlightWords);
  const noted = (note: string | null | undefined): note is string =>
    note !== null && note !== undefined && note.trim() !== '';
  const notes: OrderNote[] = [];
  if (noted(order.notes)) notes.push({ note: order.notes, flagged: flags(order.notes) });
  for (const line of order.items) {
    if (!noted(line.notes)) continue;
    notes.push({
      item: { sku: line.sku ?? '', name: line.name },
      note: line.notes,
      flagged: flags(line.notes),
    });
  }
  return flaggedFirst(notes);
}

/** "R-1042 · 3B · Lasagne": whose note a prep summary lists, and on what (as typed: each medium escapes it). */
export function summaryNoteLabel(note: {
  reference: string;
  class: string | null;
  item?: { name: string } | undefined;
}): string {
  return [note.reference, note.class ?? '', note.item?.name ?? '']
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' · ');
}
