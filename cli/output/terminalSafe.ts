// Text for a terminal that cannot take the terminal over: every character a terminal would obey rather
// than show is shown as its code, `\x1b`, `\x9b`, `\u202e`, so an order reference holding
// `ESC ] 52 ; c ; … BEL` neither writes the operator's clipboard nor clears the screen, and a lone CR
// cannot overwrite a line with other text (kubectl's CVE-2021-25743, fixed the same way).
// What is shown: C0 but tab and newline, DEL, C1 (U+0080–U+009F), the bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the direction marks (U+200E, U+200F,
// U+061C): invisible, and on a terminal that lays text out both ways they reorder what the operator
// reads. A CR before a newline (CRLF) is a line end and is dropped. A backslash is left as it is: the
// escapes name the code point for a person; `--json` has the exact text.
// The CLI writes all its text for people through one writer, output/outputSink.ts, which applies this
// function to all of it; tables call it on their cells first, to lay them out at the width they show at.

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this module's job.
const CONTROL = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same characters, without the global flag that makes test() remember where it stopped. */
const ANY_CONTROL = new RegExp(CONTROL.source);

export function terminalSafe(text: string): string {
  // Most text has nothing to show: returned as it is, without a copy.
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(CONTROL, (match) => (match === '\r\n' ? '\n' : escapeOf(match)));
}

function escapeOf(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}
