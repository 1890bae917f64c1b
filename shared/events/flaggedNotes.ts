// Which of an order's notes a person must not miss. A PLACEHOLDER until the highlight rule for notes lands
// (issue 22): a note that mentions an allergen or an allergy. The catch-up lists these orders; swap the
// rule here, the one place that decides it.
import type { OrderSummary } from './orderEvent.js';

const ALLERGEN_WORDS =
  /\b(allerg\w*|anaphyla\w*|epipen|intoleran\w*|coeliac|celiac|gluten|wheat|lactose|dairy|milk|eggs?|peanuts?|nuts?|tree ?nuts?|soya?|sesame|shellfish|crustaceans?|molluscs?|fish|mustard|celery|lupin|sulphites?|sulfites?)\b/i;

/** Whether a note is flagged for a person's attention. */
export function isFlaggedNote(note: string): boolean {
  return ALLERGEN_WORDS.test(note);
}

/** The order's flagged notes: its own first, then its lines' as "Item: note". */
export function flaggedNotes(order: OrderSummary): string[] {
  const notes: string[] = [];
  if (order.notes && isFlaggedNote(order.notes)) notes.push(order.notes);
  for (const item of order.items) {
    if (item.notes && isFlaggedNote(item.notes)) notes.push(`${item.name}: ${item.notes}`);
  }
  return notes;
}
