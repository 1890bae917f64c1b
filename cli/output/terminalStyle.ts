// A little colour for the demo and the runner when they write to a terminal, and none when piped or when
// NO_COLOR is set (https://no-color.org), so captured output stays plain text.
import { styleText } from 'node:util';

type Format = 'dim' | 'bold' | 'green' | 'red' | 'yellow' | 'cyan';
export type Style = Record<Format, (text: string) => string>;

export function terminalStyle(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): Style {
  const enabled = stream.isTTY === true && !env.NO_COLOR;
  // Node 22.13+ checks a stream itself, process.stdout unless told: the runner colours stderr, whatever
  // stdout is (events piped to jq, say).
  const format = (name: Format) => (text: string) =>
    enabled ? styleText(name, text, { stream, validateStream: false }) : text;
  return {
    dim: format('dim'),
    bold: format('bold'),
    green: format('green'),
    red: format('red'),
    yellow: format('yellow'),
    cyan: format('cyan'),
  };
}

export const PLAIN: Style = {
  dim: (text) => text,
  bold: (text) => text,
  green: (text) => text,
  red: (text) => text,
  yellow: (text) => text,
  cyan: (text) => text,
};
