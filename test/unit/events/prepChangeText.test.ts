// The plain wording of a prep_changed: one line with the counts first, so that a cut keeps them.
import { describe, expect, it } from 'vitest';
import { prepChangedLine } from '../../../shared/events/prepChangeText.js';
import { orderUuid } from '../../support/orderFactory.js';
import { makePrepChanged } from '../../support/prepChangedFixtures.js';

describe('prepChangedLine', () => {
  it('puts the orders first, then each delta', () => {
    expect(prepChangedLine(makePrepChanged())).toBe('2 orders · Lasagne: 42 → 40 · Vegetable soup: 12 → 13');
  });

  it('names three deltas and counts the rest', () => {
    const items = Array.from({ length: 5 }, (_, index) => ({
      sku: `S${index}`,
      name: `Dish ${index}`,
      from: index,
      to: index + 1,
    }));
    expect(prepChangedLine(makePrepChanged({ items }))).toBe(
      '2 orders · Dish 0: 0 → 1 · Dish 1: 1 → 2 · Dish 2: 2 → 3 · 2 more items',
    );
  });

  it('says when only notes changed', () => {
    const orders = [
      { uuid: orderUuid(1), reference: 'R-1', change: 'updated' as const, notes_changed: true as const },
    ];
    expect(prepChangedLine(makePrepChanged({ items: [], orders }))).toBe('1 order · notes only');
  });
});
