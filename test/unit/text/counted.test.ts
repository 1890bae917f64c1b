import { describe, expect, it } from 'vitest';
import { counted } from '../../../shared/text/counted.js';

describe('counted', () => {
  it('puts the noun in the singular for exactly one, the plural for zero and for many', () => {
    expect(counted(1, 'order')).toBe('1 order');
    expect(counted(0, 'order')).toBe('0 orders');
    expect(counted(2, 'order')).toBe('2 orders');
  });

  it('keeps the words before the noun, as in "1 canceled order"', () => {
    expect(counted(1, 'canceled order')).toBe('1 canceled order');
    expect(counted(3, 'canceled order')).toBe('3 canceled orders');
  });

  it('takes the plural of a noun that does not just add an s', () => {
    expect(counted(1, 'delivery', 'deliveries')).toBe('1 delivery');
    expect(counted(5, 'delivery', 'deliveries')).toBe('5 deliveries');
    expect(counted(2, 'stream batch', 'stream batches')).toBe('2 stream batches');
  });
});
