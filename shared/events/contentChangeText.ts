// The plain-text line for a change of an order's content (`order.updated`: items, quantities, notes), one
// wording for Slack, e-mail and the CLI, each of which escapes it for its own medium.
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
