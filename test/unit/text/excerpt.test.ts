import { describe, expect, it } from 'vitest';
import { excerpt } from '../../../shared/text/excerpt.js';

describe('excerpt', () => {
  it('puts the text on one line: runs of whitespace and control characters become one space', () => {
    expect(excerpt('  error\r\n\tat line 1\u0000\u0007end  ', 200)).toBe('error at line 1 end');
  });

  it('cuts a long text at maxChars and says so with "…"', () => {
    expect(excerpt('x'.repeat(300), 200)).toBe(`${'x'.repeat(200)}…`);
    expect(excerpt('x'.repeat(200), 200)).toBe('x'.repeat(200));
  });
});
