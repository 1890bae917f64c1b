// What an `order.updated` changed, in one short piece of a terminal line: "Lasagne 1 → 2; 🚨 notes:
// Allergic to eggs", a new note that names an allergy or a diet marked (with the organization's words),
// at most three changes and then how many more.
import { contentChangeBrief, isFlaggedChange } from '../../shared/events/contentChangeText.js';
import type { Change } from '../../shared/events/orderEvent.js';
import { PLAIN, type Style } from './terminalStyle.js';

const SHOWN = 3;

export function updatedChangesText(
  changes: readonly Change[],
  highlightWords: readonly string[],
  style: Style = PLAIN,
): string | undefined {
  const parts = changes.flatMap((change) => {
    const brief = contentChangeBrief(change);
    if (brief === undefined) return [];
    return [isFlaggedChange(change, highlightWords) ? style.red(`🚨 ${brief}`) : brief];
  });
  if (parts.length === 0) return undefined;
  const hidden = parts.length - SHOWN;
  return [...parts.slice(0, SHOWN), ...(hidden > 0 ? [`+${hidden} more`] : [])].join('; ');
}
