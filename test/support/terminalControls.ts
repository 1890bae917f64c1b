// Text that would take a terminal over if it were printed as it is, for tests that feed it to the CLI as
// API data, and a way to find, in what the CLI printed, any control character a terminal obeys.

/** OSC 52: sets the terminal's clipboard ("Hello"), ended by BEL. */
export const SET_CLIPBOARD = '\u001b]52;c;SGVsbG8=\u0007';
/** CSI 2 J: clears the screen. */
export const CLEAR_SCREEN = '\u001b[2J';
/** C1 CSI (one character, U+009B), then SGR 31: red, on a terminal that takes 8-bit controls. */
export const C1_RED = '\u009b31m';
/** RIGHT-TO-LEFT OVERRIDE: what follows reads backwards. */
export const RIGHT_TO_LEFT = '\u202e';

/** `label` carrying each kind of sequence, a lone CR among them (which would overwrite the line). */
export function hostile(label: string): string {
  return `${label}${SET_CLIPBOARD}${CLEAR_SCREEN}\rX${C1_RED}${RIGHT_TO_LEFT}!`;
}

/** `hostile(label)` as the CLI shows it to a person: each control character as its code. */
export function shown(label: string): string {
  return `${label}\\x1b]52;c;SGVsbG8=\\x07\\x1b[2J\\x0dX\\x9b31m\\u202e!`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Every character of `text` a terminal would obey rather than show (tab and newline aside), each with a
 * little of what surrounds it, so a failure says where it leaked.
 */
export function obeyedControls(text: string): string[] {
  return [...text.matchAll(OBEYED)].map(
    (match) =>
      `U+${(match[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0')} in ${JSON.stringify(text.slice(Math.max(0, match.index - 20), match.index + 20))}`,
  );
}

/** The SGR codes of the CLI's own style (bold, dim, red, green, yellow, cyan and their ends). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the codes start with ESC.
const OWN_COLOUR = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

/** `text` without the CLI's own colour codes: what is left must obey nothing. */
export function withoutOwnColour(text: string): string {
  return text.replace(OWN_COLOUR, '');
}
