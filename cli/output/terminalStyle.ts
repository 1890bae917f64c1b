// A little colour for the demo and the runner when they write to a terminal, and none when piped or when
// NO_COLOR is set (https://no-color.org), so captured output stays plain text.
// A styled text carries no escape code: it carries marks, which only the output sink (outputSink.ts)
// turns into SGR codes, after it has made everything else safe for a terminal (terminalSafe.ts). So the
// sink can neutralize every control character it is given, whoever composed the line, and still colour
// it. A mark is two noncharacters (which Unicode keeps for a program's own use) around a token drawn
// anew by each process: data from the API may hold any character, but not a token it has never seen.
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

type Format = 'dim' | 'bold' | 'green' | 'red' | 'yellow' | 'cyan';
export type Style = Record<Format, (text: string) => string>;

const TOKEN = randomBytes(9).toString('base64url');
const OPEN = '\uFDD0';
const CLOSE = '\uFDD1';
const MARK = new RegExp(`${OPEN}${TOKEN}:(\\d+)${CLOSE}`, 'g');

const mark = (code: number) => `${OPEN}${TOKEN}:${code}${CLOSE}`;

/** The SGR codes Node's own util.styleText writes for the format, around the text, as marks. */
function marked(format: Format): (text: string) => string {
  const [open, close] = inspect.colors[format] ?? [0, 0];
  return (text) => `${mark(open)}${text}${mark(close)}`;
}

/** The style of text for a person at a terminal that shows colour: only an output sink may write it. */
export const COLOURED: Style = {
  dim: marked('dim'),
  bold: marked('bold'),
  green: marked('green'),
  red: marked('red'),
  yellow: marked('yellow'),
  cyan: marked('cyan'),
};

export const PLAIN: Style = {
  dim: (text) => text,
  bold: (text) => text,
  green: (text) => text,
  red: (text) => text,
  yellow: (text) => text,
  cyan: (text) => text,
};

/** A terminal, unless NO_COLOR says the person wants none. */
export function showsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/**
 * `text` with each of COLOURED's marks turned into its SGR code (`colour`) or removed, and what lies
 * between the marks passed through `between`.
 */
export function renderMarks(text: string, colour: boolean, between: (text: string) => string): string {
  let rendered = '';
  let from = 0;
  for (const match of text.matchAll(MARK)) {
    rendered += between(text.slice(from, match.index));
    if (colour) rendered += `\u001b[${match[1]}m`;
    from = match.index + match[0].length;
  }
  return from === 0 ? between(text) : rendered + between(text.slice(from));
}
