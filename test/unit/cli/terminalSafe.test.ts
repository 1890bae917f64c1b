import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../../../cli/output/terminalSafe.js';
import { obeyedControls } from '../../support/terminalControls.js';

describe('terminalSafe: what a terminal would obey is shown as its code', () => {
  it('shows C0 controls as \\xHH: ESC, BEL, NUL, backspace, form feed, vertical tab', () => {
    expect(terminalSafe('NS-1\u001b]52;c;SGVsbG8=\u0007')).toBe('NS-1\\x1b]52;c;SGVsbG8=\\x07');
    expect(terminalSafe('\u001b[2J')).toBe('\\x1b[2J');
    expect(terminalSafe('a\u0000b\u0008c\u000cd\u000be')).toBe('a\\x00b\\x08c\\x0cd\\x0be');
  });

  it('shows DEL and the C1 controls (CSI as one character, U+009B, included)', () => {
    expect(terminalSafe('x\u007f')).toBe('x\\x7f');
    expect(terminalSafe('\u009b31mred')).toBe('\\x9b31mred');
    expect(terminalSafe('\u0080\u009d\u009f')).toBe('\\x80\\x9d\\x9f');
  });

  it('shows the bidirectional overrides, embeddings, isolates and marks', () => {
    expect(terminalSafe('Ana \u202eSilva')).toBe('Ana \\u202eSilva');
    for (const char of ['\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(terminalSafe(char)).toBe(`\\u${char.charCodeAt(0).toString(16)}`);
    }
    expect(terminalSafe('\u200e\u200f\u061c')).toBe('\\u200e\\u200f\\u061c');
  });

  it('shows a lone CR, so it cannot overwrite the line; a CRLF is a line end', () => {
    expect(terminalSafe('paid\rREFUNDED')).toBe('paid\\x0dREFUNDED');
    expect(terminalSafe('one\r\ntwo\r')).toBe('one\ntwo\\x0d');
  });

  it('keeps tab and newline, and text with nothing to show, as they are', () => {
    expect(terminalSafe('a\tb\nc')).toBe('a\tb\nc');
    const text = 'Cantina São João — 🍝 Lasagne ×2, 午餐';
    expect(terminalSafe(text)).toBe(text);
  });

  it('gives text that is safe already back unchanged, so showing twice is showing once', () => {
    const once = terminalSafe('\u001b]52;c;x\u0007\r\u009b\u202e');
    expect(terminalSafe(once)).toBe(once);
    expect(obeyedControls(once)).toEqual([]);
  });
});
