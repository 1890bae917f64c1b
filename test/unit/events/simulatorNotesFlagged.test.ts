// Every note the simulator can write, order's and item's, read with the default highlight words: each one
// naming an allergy or a diet is flagged, whatever its language, and the others are not.
import { describe, expect, it } from 'vitest';
import { DEFAULT_HIGHLIGHT_WORDS, isFlaggedNote } from '../../../shared/events/noteHighlights.js';
import { ITEM_NOTES, ORDER_NOTES } from '../../../simulator/catalog.js';

/** What a kitchen must see first (true) or may read in turn (false), note by note, as a person reads it. */
const ALLERGY_OR_DIET: Readonly<Record<string, boolean>> = {
  'Allergic to peanuts — no nuts at all.': true,
  'Coeliac: gluten-free only.': true,
  'Lactose intolerant.': true,
  'Vegetarian.': true,
  'Halal, please.': true,
  'Egg allergy.': true,
  'Sesame allergy: no seeds on the bread.': true,
  'Severe shellfish allergy.': true,
  'Vegan: no dairy, no eggs.': true,
  // A religious diet, as halal is.
  'No pork, please.': true,
  'Alergia a frutos secos.': true,
  'Sem glúten, por favor.': true,
  'Intolerância à lactose.': true,
  'Sin gluten, por favor.': true,
  'No onions, please.': false,
  'Pick up at the second break.': false,
  'Her older brother will collect it.': false,
  'Small portion, please.': false,
  'Cut in small pieces.': false,
  'Cut in half, please.': false,
  'No sauce.': false,
  'Extra bread.': false,
  'Not too hot.': false,
  'Gluten-free bread, please.': true,
  'No cheese: lactose intolerant.': true,
  'Nut allergy: nothing with nuts.': true,
  'Egg allergy: no mayonnaise.': true,
  'No sesame seeds.': true,
  'Sem lactose.': true,
  'Sem cebola, por favor.': false,
};

const SIMULATOR_NOTES: readonly string[] = [...ORDER_NOTES, ...ITEM_NOTES];

describe('Every note the simulator writes, with the default highlight words', () => {
  it('is known here: a note added to the catalog must be said to name an allergy or a diet, or not', () => {
    expect(SIMULATOR_NOTES.filter((note) => !(note in ALLERGY_OR_DIET))).toEqual([]);
  });

  it.each(SIMULATOR_NOTES.filter((note) => ALLERGY_OR_DIET[note] === true))('flags "%s"', (note) => {
    expect(isFlaggedNote(note, DEFAULT_HIGHLIGHT_WORDS)).toBe(true);
  });

  it.each(SIMULATOR_NOTES.filter((note) => ALLERGY_OR_DIET[note] === false))('does not flag "%s"', (note) => {
    expect(isFlaggedNote(note, DEFAULT_HIGHLIGHT_WORDS)).toBe(false);
  });
});
