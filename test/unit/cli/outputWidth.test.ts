import { describe, expect, it } from 'vitest';
import { outputWidth } from '../../../cli/output/outputWidth.js';

describe('the width tables are fitted to', () => {
  it('is the terminal’s when stdout is one', () => {
    expect(outputWidth({ isTTY: true, columns: 80 }, {})).toBe(80);
  });

  it('is COLUMNS when set, terminal or not, as ls and ps read it', () => {
    expect(outputWidth({ isTTY: true, columns: 200 }, { COLUMNS: '80' })).toBe(80);
    expect(outputWidth({}, { COLUMNS: '100' })).toBe(100);
  });

  it('has no limit when stdout is not a terminal, or COLUMNS is not a width', () => {
    expect(outputWidth({}, {})).toBeUndefined();
    expect(outputWidth({ isTTY: false, columns: 80 }, {})).toBeUndefined();
    expect(outputWidth({}, { COLUMNS: 'wide' })).toBeUndefined();
    expect(outputWidth({}, { COLUMNS: '0' })).toBeUndefined();
  });
});
