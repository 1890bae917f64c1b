// How many terminal columns a text takes, to wrap table cells where the terminal will: combining marks
// and format characters take none, wide East Asian characters and emoji take two, the rest one.

const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const DOUBLE_WIDTH =
  /[\p{Emoji_Presentation}\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;

export function charWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0;
  return DOUBLE_WIDTH.test(char) ? 2 : 1;
}

/** Printable ASCII only: one column a character, the common case, counted at once. */
const NARROW = /^[\x20-\x7e]*$/;

export function displayWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}
