// Whether a note names an allergy or a diet (pure): the one rule Slack, e-mail, the prep summary and the CLI
// flag notes by, with the highlight words of the note's organization (the config's
// `organizations[].highlightWords`, DEFAULT_HIGHLIGHT_WORDS when it sets none).
//
// The rule: case and accents are ignored (NFD, combining marks dropped, lower case, "œ", "æ" and "ß" as
// "oe", "ae" and "ss"), and a note is cut into words, runs of letters and digits. A highlight word matches
// a word of the note that starts with it: "nut" matches "nuts" and "Nut-free", "egg" matches "Eggs",
// "gluten" matches "glúten-free"; a highlight word ending in "y" also matches its plural in "-ies"
// ("allergy", "allergies"). A word is matched from its start only, so "nut" does not match "peanut" (hence
// both in the defaults), but it does match "nutmeg": a false alarm costs a glance, a missed allergy costs
// more. A highlight word of several words ("tree nut") matches those words in a row, the last one from its
// start.

/**
 * The common allergens (the fourteen the EU asks a kitchen to declare) and diets, in English, Portuguese,
 * Spanish, French, German and Italian: what an organization gets unless it sets its own. Written as people
 * write them (accents, "œ", "ß" fold away when matched); each is a word's start, so "alergia" also takes
 * "alergias", and a compound that starts with another word ("Erdnuss", "Haselnuss") is listed itself. A
 * word too short to stand alone without false alarms (German "Ei", French "porc", "blé") is left out, or
 * said with the word before it ("sans porc").
 */
export const DEFAULT_HIGHLIGHT_WORDS: readonly string[] = [
  // Allergy, intolerance.
  'allergy',
  'allergic',
  'alergia',
  'alérgico',
  'alérgica',
  'allergie',
  'allergique',
  'allergisch',
  'Allergiker',
  'allergia',
  'allergico',
  'allergica',
  'intolerant',
  'intolerance',
  'intolerância',
  'Intoleranz',
  'Unverträglichkeit',
  'intolleranza',
  'intollerante',
  // Nuts and peanuts.
  'nut',
  'peanut',
  'almond',
  'hazelnut',
  'walnut',
  'cashew',
  'pistachio',
  'pecan',
  'frutos secos',
  'amendoim',
  'noz',
  'amêndoa',
  'cacahuete',
  'cacahuate',
  'nuez',
  'nueces',
  'almendra',
  'avellana',
  'noix',
  'arachide',
  'fruits à coque',
  'noisette',
  'amande',
  'Nuss',
  'Nüsse',
  'Erdnuss',
  'Haselnuss',
  'Walnuss',
  'Schalenfrüchte',
  'Mandel',
  'frutta a guscio',
  'noci',
  'arachidi',
  'nocciola',
  'nocciole',
  'mandorla',
  'mandorle',
  'anacardi',
  'pistacchi',
  // Gluten, wheat, coeliac disease ("celiac" also takes "celíaco").
  'gluten',
  'glutine',
  'wheat',
  'trigo',
  'Weizen',
  'coeliac',
  'celiac',
  'cœliaque',
  'céliaque',
  'Zöliakie',
  // Milk.
  'lactose',
  'lactosa',
  'Laktose',
  'lattosio',
  'dairy',
  'milk',
  'leite',
  'laticínios',
  'leche',
  'lácteos',
  'lait',
  'Milch',
  'latte',
  'latticini',
  // Eggs.
  'egg',
  'ovo',
  'huevo',
  'œuf',
  'Eier',
  'uovo',
  'uova',
  // Soy, sesame, mustard, celery, lupin, sulphites.
  'soy',
  'soja',
  'soia',
  'sesame',
  'sésamo',
  'Sesam',
  'gergelim',
  'mustard',
  'mostarda',
  'mostaza',
  'moutarde',
  'Senf',
  'senape',
  'celery',
  'aipo',
  'apio',
  'céleri',
  'Sellerie',
  'sedano',
  'lupin',
  'tremoço',
  'altramuz',
  'sulphite',
  'sulfite',
  'sulfito',
  'Sulfit',
  'solfiti',
  // Fish, shellfish, crustaceans, molluscs.
  'fish',
  'peixe',
  'pescado',
  'poisson',
  'Fisch',
  'pesce',
  'shellfish',
  'seafood',
  'marisco',
  'frutos do mar',
  'fruits de mer',
  'Meeresfrüchte',
  'frutti di mare',
  'crustacean',
  'crustáceo',
  'crustacé',
  'Krebstiere',
  'crostacei',
  'mollusc',
  'mollusk',
  'molusco',
  'mollusque',
  'Weichtiere',
  'molluschi',
  // Diets.
  'vegan',
  'vegetarian',
  'vegetariano',
  'végétarien',
  'végétalien',
  'vegetarisch',
  'halal',
  'kosher',
  'casher',
  'kasher',
  'koscher',
  'pork',
  'porco',
  'cerdo',
  'sans porc',
  'Schwein',
  'maiale',
  'diabetic',
  'diabetes',
  'diabético',
  'diabétique',
  'Diabetiker',
];

/** Letters no decomposition takes apart, as they are written without them: "cœliaque" is "coeliaque". */
const LIGATURES: Readonly<Record<string, string>> = { œ: 'oe', æ: 'ae', ß: 'ss' };

/** `text` as matching compares it: accents dropped, lower case, cut into its words. */
export function matchWords(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[œæß]/g, (letter) => LIGATURES[letter] ?? letter)
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
