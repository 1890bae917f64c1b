// The plain-text line for a change of an order's content (`order.updated`: items, quantities, notes), one
// wording for Slack, e-mail and the CLI, each of which escapes it for its own medium; what an update
// changed, in a word or two, for headers and subjects; and whether a changed note is flagged.
import { isFlaggedNote } from './noteHighlights.js';
import type { Change } from './orderEvent.js';

/** "Lasagne: 1 → 2", "Notes: none → Allergic to eggs", "Notes on Lasagne: … → …"; undefined for a transition's field. */
export function contentChangeText(change: Change): string | undefined {
  const note = (value: string | null) => (value === null || value.trim() === '' ? 'none' : value);
  switch (change.field) {
    case 'items':
      return `${change.name}: ${change.from} → ${change.to}`;
    case 'notes':
      return `Notes: ${note(change.from)} → ${note(change.to)}`;
    case 'item_notes':
      return `Notes on ${change.name}: ${note(change.from)} → ${note(change.to)}`;
    default:
      return undefined;
  }
}

/**
 * The short form, for one line of a terminal: "Lasagne 1 → 2", "notes: Allergic to eggs", "Lasagne notes
 * removed". Notes on one line, cut to `noteChars`; undefined for a transition's field.
 */
export function contentChangeBrief(change: Change, noteChars = 60): string | undefined {
  const note = (value: string | null) => {
    const text = (value ?? '').replace(/\s+/g, ' ').trim();
    const chars = [...text];
    return chars.length <= noteChars ? text : `${chars.slice(0, noteChars - 1).join('')}…`;
  };
  const said = (what: string, to: string | null) =>
    note(to) === '' ? `${what} removed` : `${what}: ${note(to)}`;
  switch (change.field) {
    case 'items':
      return `${change.name} ${change.from} → ${change.to}`;
    case 'notes':
      return said('notes', change.to);
    case 'item_notes':
      return said(`${change.name} notes`, change.to);
    default:
      return undefined;
  }
}

/** "items", "notes" or "items, notes": what an update's changes are about; undefined when neither. */
export function changedContent(changes: readonly Change[]): string | undefined {
  const parts = [
    ...(changes.some((change) => change.field === 'items') ? ['items'] : []),
    ...(changes.some((change) => change.field === 'notes' || change.field === 'item_notes') ? ['notes'] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** A note written or rewritten by this change names one of the highlight words. */
export function isFlaggedChange(change: Change, highlightWords: readonly string[]): boolean {
  if (change.field !== 'notes' && change.field !== 'item_notes') return false;
  return change.to !== null && isFlaggedNote(change.to, highlightWords);
}
