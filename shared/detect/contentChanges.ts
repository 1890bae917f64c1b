// What changed in what a kitchen cooks from (pure): the units of each item, the order's notes, each line's
// notes. Quantities are compared per sku, as a kitchen counts them; a line's notes per line.
import type { Change } from '../events/orderEvent.js';
import type { OrderContent } from './snapshot.js';

/** Notes that say nothing (absent, empty, blank) are all the same: no note. */
function noteOf(notes: string | null): string | null {
  return notes === null || notes.trim() === '' ? null : notes;
}

export function contentChanges(before: OrderContent, after: OrderContent): Change[] {
  const changes: Change[] = [];
  const units = (content: OrderContent) => {
    const bySku = new Map<string, { name: string; quantity: number }>();
    for (const line of content.lines) {
      const known = bySku.get(line.sku);
      bySku.set(line.sku, {
        name: known?.name ?? line.name,
        quantity: (known?.quantity ?? 0) + line.quantity,
      });
    }
    return bySku;
  };
  const was = units(before);
  const now = units(after);
  for (const sku of new Set([...now.keys(), ...was.keys()])) {
    const from = was.get(sku)?.quantity ?? 0;
    const to = now.get(sku)?.quantity ?? 0;
    const name = now.get(sku)?.name ?? was.get(sku)?.name ?? sku;
    if (from !== to) changes.push({ field: 'items', sku, name, from, to });
  }
  const notesBefore = noteOf(before.notes);
  const notesAfter = noteOf(after.notes);
  if (notesBefore !== notesAfter) changes.push({ field: 'notes', from: notesBefore, to: notesAfter });
  const linesBefore = new Map(before.lines.map((line) => [line.uuid, line]));
  for (const line of after.lines) {
    // A new line's note is news too: it may be the allergy that comes with the added dish.
    const from = noteOf(linesBefore.get(line.uuid)?.notes ?? null);
    const to = noteOf(line.notes);
    if (from !== to) changes.push({ field: 'item_notes', sku: line.sku, name: line.name, from, to });
  }
  return changes;
}
