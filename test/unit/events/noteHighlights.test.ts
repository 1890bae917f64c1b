import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HIGHLIGHT_WORDS,
  flaggedFirst,
  isFlaggedNote,
  matchWords,
} from '../../../shared/events/noteHighlights.js';
import { orderNotes, summaryNoteLabel } from '../../../shared/events/orderNotes.js';

const flagged = (note: string, words: readonly string[] = DEFAULT_HIGHLIGHT_WORDS) =>
  isFlaggedNote(note, words);

describe('isFlaggedNote with the default words', () => {
  it.each([
    'Allergic to eggs',
    'ALLERGY: see file',
    'allergies: none known, but no peanuts',
    'Has allergies',
    'No nuts please',
    'Nut-free',
    'nut free',
    'Eggs on the side? No: egg allergy',
    'Coeliac',
    'gluten-free bread',
    'Vegan',
    'vegetarian option',
    'Halal only',
    'kosher',
    'lactose intolerant',
    'dairy-free',
    'no milk',
    'soya milk',
    'sesame',
    'shellfish',
    'no fish',
  ])('flags "%s"', (note) => {
    expect(flagged(note)).toBe(true);
  });

  it.each(['Cut in small pieces', 'Extra sauce, please', 'Picked up by grandma', 'cheese', '', '   '])(
    'does not flag "%s"',
    (note) => {
      expect(flagged(note)).toBe(false);
    },
  );

  it('ignores case and accents (NFD, combining marks dropped)', () => {
    expect(flagged('GLÚTEN')).toBe(true);
    expect(flagged('Cœliac? no: Cëliac')).toBe(true);
    expect(flagged('sin glúten', ['gluten'])).toBe(true);
    expect(flagged('sin gluten', ['glúten'])).toBe(true);
    // A precomposed and a decomposed accent are the same letter.
    expect(flagged('ve\u0301gan', ['végan'])).toBe(true);
  });

  it('matches a highlight word at the start of a word, not inside one', () => {
    expect(flagged('nuts', ['nut'])).toBe(true);
    expect(flagged('Nut-free', ['nut'])).toBe(true);
    expect(flagged('eggs', ['egg'])).toBe(true);
    expect(flagged('peanut butter', ['nut'])).toBe(false);
    expect(flagged('a doughnut', ['nut'])).toBe(false);
    // The price of matching from the start: a word that starts like an allergen is flagged too.
    expect(flagged('nutmeg', ['nut'])).toBe(true);
  });

  it('matches the -ies plural of a highlight word ending in y', () => {
    expect(flagged('allergies', ['allergy'])).toBe(true);
    expect(flagged('dairies', ['dairy'])).toBe(true);
  });

  it('matches a highlight word of several words as those words in a row', () => {
    expect(flagged('no tree nuts', ['tree nut'])).toBe(true);
    expect(flagged('Tree-nuts', ['tree nut'])).toBe(true);
    expect(flagged('a tree, and nuts', ['tree nut'])).toBe(false);
    expect(flagged('nut tree', ['tree nut'])).toBe(false);
  });

  it("uses the organization's words instead of the defaults when it sets its own", () => {
    expect(flagged('Sem glúten', ['glúten', 'alergia'])).toBe(true);
    expect(flagged('Alergia a ovo', ['glúten', 'alergia'])).toBe(true);
    // The defaults no longer apply.
    expect(flagged('Allergic to eggs', ['glúten', 'alergia'])).toBe(false);
  });

  it('flags nothing with an empty list, nor with words that have no letter or digit', () => {
    expect(flagged('Allergic to eggs', [])).toBe(false);
    expect(flagged('!!! nuts', ['!!!'])).toBe(false);
  });
});

describe('matchWords', () => {
  it('cuts text into lower-case words without accents', () => {
    expect(matchWords('Nut-free, SÃO João; 2 eggs')).toEqual(['nut', 'free', 'sao', 'joao', '2', 'eggs']);
  });
});

describe('flaggedFirst', () => {
  it('puts flagged entries first and keeps each group in its order', () => {
    const entries = [
      { id: 1, flagged: false },
      { id: 2, flagged: true },
      { id: 3, flagged: false },
      { id: 4, flagged: true },
    ];
    expect(flaggedFirst(entries).map(({ id }) => id)).toEqual([2, 4, 1, 3]);
  });
});

describe('orderNotes', () => {
  const order = {
    notes: 'Picked up at 13:00',
    items: [
      { sku: 'SOUP', name: 'Soup', notes: 'no croutons' },
      { sku: 'LAS', name: 'Lasagne', notes: 'Egg allergy' },
      { sku: 'JUICE', name: 'Juice', notes: '  ' },
      { name: 'Bread', notes: null },
    ],
  };

  it("lists the order's note and its lines' notes, flagged first, leaving empty ones out", () => {
    expect(orderNotes(order, DEFAULT_HIGHLIGHT_WORDS)).toEqual([
      { item: { sku: 'LAS', name: 'Lasagne' }, note: 'Egg allergy', flagged: true },
      { note: 'Picked up at 13:00', flagged: false },
      { item: { sku: 'SOUP', name: 'Soup' }, note: 'no croutons', flagged: false },
    ]);
  });

  it('flags nothing with an empty list of words, and keeps the order note first', () => {
    expect(orderNotes(order, []).map(({ note, flagged }) => [note, flagged])).toEqual([
      ['Picked up at 13:00', false],
      ['no croutons', false],
      ['Egg allergy', false],
    ]);
  });

  it('is empty for an order without notes', () => {
    expect(orderNotes({ notes: null, items: [{ name: 'Soup' }] }, DEFAULT_HIGHLIGHT_WORDS)).toEqual([]);
  });
});

describe('summaryNoteLabel', () => {
  it('names the reference, the class and the item, leaving out what is missing', () => {
    expect(summaryNoteLabel({ reference: 'R-1', class: '3B', item: { name: 'Soup' } })).toBe(
      'R-1 · 3B · Soup',
    );
    expect(summaryNoteLabel({ reference: 'R-2', class: null })).toBe('R-2');
  });
});

describe('The default words in the kitchens’ languages', () => {
  it.each([
    // Portuguese
    'Alergia a frutos secos.',
    'Alérgico ao amendoim',
    'Sem glúten',
    'Intolerância à lactose',
    'Celíaco',
    'Sem leite nem ovos',
    'Vegano',
    'Não pode comer marisco',
    'Sésamo não',
    // Spanish
    'Alergia al cacahuete',
    'sin gluten',
    'Sin lactosa, por favor',
    'Celiaca',
    'Es vegetariano',
    'Nada de frutos secos',
    'Sin huevo',
    'Alergia a las nueces',
    // French
    'Allergie aux arachides',
    'sans gluten',
    'Intolérance au lactose',
    'Pas de noix',
    'Cœliaque',
    'coeliaque',
    'Céliaque',
    'végétarien',
    'Végétalienne',
    'Pas d’œufs',
    'Sans porc',
    'fruits à coque',
    'Sésame',
    // German
    'Erdnussallergie',
    'glutenfrei',
    'Keine Nüsse',
    'Laktoseintoleranz',
    'Ohne Milch',
    'Schalenfrüchte',
    'Zöliakie',
    'Vegetarisch',
    'Haselnüsse bitte weglassen',
    'Keine Eier',
    // Italian
    'allergia alle arachidi',
    'senza glutine',
    'Celiaco',
    'Intolleranza al lattosio',
    'vegano',
    'Niente frutta a guscio',
    'Niente uova',
  ])('flags "%s"', (note) => {
    expect(flagged(note)).toBe(true);
  });

  it.each([
    'Please knock',
    'Eine Portion, bitte',
    'Einmal ohne Zwiebeln',
    'Porção pequena',
    'Porción pequeña',
    'Pouco sal',
    'Bitte klingeln',
    'Per favore, bussare',
    'Merci beaucoup',
  ])('does not flag "%s"', (note) => {
    expect(flagged(note)).toBe(false);
  });

  it('reads "œ", "æ" and "ß" as "oe", "ae" and "ss" on both sides', () => {
    expect(matchWords('Œufs, Cæsar, Straße')).toEqual(['oeufs', 'caesar', 'strasse']);
    expect(flagged('oeufs', ['œuf'])).toBe(true);
    expect(flagged('Cœliaque', ['coeliaque'])).toBe(true);
  });

  it('lists each word once, as matching reads it', () => {
    const read = DEFAULT_HIGHLIGHT_WORDS.map((word) => matchWords(word).join(' '));
    expect(new Set(read).size).toBe(read.length);
  });
});
