import { describe, expect, it } from 'vitest';
import { ITEM_NOTES, ORDER_NOTES } from '../../../simulator/catalog.js';

const ALLERGY_OR_DIET =
  /allerg|alergia|coeliac|gluten|glúten|lactose|vegetarian|vegan|halal|pork|nut|egg|sesame|shellfish/i;

describe('The notes parents write', () => {
  it('are plain one-line text, each different', () => {
    for (const note of [...ORDER_NOTES, ...ITEM_NOTES]) {
      expect(note).toBe(note.trim());
      expect(note).not.toMatch(/[\n\r\t<>*_`[\]]/);
      expect(note.length).toBeLessThanOrEqual(60);
    }
    expect(new Set(ORDER_NOTES).size).toBe(ORDER_NOTES.length);
    expect(new Set(ITEM_NOTES).size).toBe(ITEM_NOTES.length);
  });

  it('mostly name an allergy or a diet, and some do not', () => {
    const orderShare = ORDER_NOTES.filter((note) => ALLERGY_OR_DIET.test(note)).length / ORDER_NOTES.length;
    expect(orderShare).toBeGreaterThanOrEqual(0.5);
    expect(ORDER_NOTES.some((note) => !ALLERGY_OR_DIET.test(note))).toBe(true);
    expect(ITEM_NOTES.filter((note) => ALLERGY_OR_DIET.test(note)).length).toBeGreaterThanOrEqual(3);
    expect(ITEM_NOTES.some((note) => !ALLERGY_OR_DIET.test(note))).toBe(true);
  });

  it('include allergies written with accents, which matching must see through', () => {
    const accented = [...ORDER_NOTES, ...ITEM_NOTES].filter((note) => note.normalize('NFD') !== note);
    expect(accented.length).toBeGreaterThanOrEqual(2);
    expect(accented.some((note) => ALLERGY_OR_DIET.test(note))).toBe(true);
  });
});
