// Whether a note names an allergy or a diet (pure): the one rule Slack, e-mail, the prep summary and the CLI
// flag notes by, with the highlight words of the note's organization (the config's
// `organizations[].highlightWords`, DEFAULT_HIGHLIGHT_WORDS when it sets none).
//
// The rule: case and accents are ignored (NFD, combining marks dropped, lower case), and a note is cut into
// words, runs of letters and digits. A highlight word matches a word of the note that starts with it:
// "nut" matches "nuts" and "Nut-free", "egg" matches "Eggs", "gluten" matches "glúten-free"; a highlight
// word ending in "y" also matches its plural in "-ies" ("allergy", "allergies"). A word is matched from its
// start only, so "nut" does not match "peanut" (hence both in the defaults), but it does match "nutmeg":
// a false alarm costs a glance, a missed allergy costs more. A highlight word of several words ("tree
// nut") matches those words in a row, the last one from its start.

/** The common allergens and diets, in English: what an organization gets unless it sets its own. */
export const DEFAULT_HIGHLIGHT_WORDS: readonly string[] = [
  'allergy',
  'allergic',
  'nut',
  'peanut',
  'gluten',
  'coeliac',
  'celiac',
  'lactose',
  'dairy',
  'milk',
  'egg',
  'soy',
  'sesame',
  'fish',
  'shellfish',
  'vegan',
  'vegetarian',
  'halal',
  'kosher',
];

/** `text` as matching compares it: accents dropped, lower case, cut into its words. */
export function matchWords(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** A highlight word as its words, each last one with the prefixes it matches. */
interface Pattern {
  whole: readonly string[];
  starts: readonly string[];
}

function patternOf(word: string): Pattern | undefined {
  const words = matchWords(word);
  const last = words.pop();
  if (last === undefined) return undefined;
  // "allergy" → also "allergi…" ("allergies"); a word of two letters or fewer is left alone.
  const plural = last.length > 2 && last.endsWith('y') ? [`${last.slice(0, -1)}ies`] : [];
  return { whole: words, starts: [last, ...plural] };
}

function matchesAt(words: readonly string[], at: number, pattern: Pattern): boolean {
  const { whole, starts } = pattern;
  if (at + whole.length >= words.length) return false;
  for (const [offset, expected] of whole.entries()) if (words[at + offset] !== expected) return false;
  const last = words[at + whole.length] ?? '';
  return starts.some((start) => last.startsWith(start));
}

/** Highlighters by the list they were built from: a list (the config's, the default) is built once. */
const highlighters = new WeakMap<readonly string[], (note: string) => boolean>();

/**
 * Matches notes against one organization's highlight words. Built once per list and kept: a catch-up after
 * a long outage reads the notes of every event it folds.
 */
export function noteHighlighter(highlightWords: readonly string[]): (note: string) => boolean {
  const known = highlighters.get(highlightWords);
  if (known !== undefined) return known;
  const highlighter = buildHighlighter(highlightWords);
  highlighters.set(highlightWords, highlighter);
  return highlighter;
}

function buildHighlighter(highlightWords: readonly string[]): (note: string) => boolean {
  const patterns = highlightWords.map(patternOf).filter((pattern) => pattern !== undefined);
  return (note) => {
    if (patterns.length === 0) return false;
    const words = matchWords(note);
    return words.some((_, at) => patterns.some((pattern) => matchesAt(words, at, pattern)));
  };
}

/** True when `note` names one of `highlightWords` (the rule above); never for an empty list. */
export function isFlaggedNote(note: string, highlightWords: readonly string[]): boolean {
  return noteHighlighter(highlightWords)(note);
}

/** `entries` with the flagged ones first, each group in its own order. */
export function flaggedFirst<Entry extends { flagged: boolean }>(entries: readonly Entry[]): Entry[] {
  return [...entries.filter((entry) => entry.flagged), ...entries.filter((entry) => !entry.flagged)];
}
