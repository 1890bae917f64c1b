// The one place where the CLI's output meets stdout and stderr (or a test's stand-in for them): text for
// a person, or JSON for a program. No other module of cli/ writes to a standard stream or names one to
// write to (test/unit/architecture/humanOutputSink.test.ts fails if one does).
// Text for a person is made safe for a terminal here, all of it, whoever composed it: data from the API
// (references, names, notes), from a receiver's answer or from a config file goes out with its control
// characters shown, not obeyed (terminalSafe.ts). Line builders need not remember to do it; tables do it
// to their cells first only to lay them out at the width they will have. The CLI's own colour survives
// because it is not written as escape codes but as marks no data can forge (terminalStyle.ts), turned
// into SGR codes only after everything else was made safe, and only on a terminal.
// JSON is for programs, and written as JSON.stringify gives it, the data exact once parsed: it escapes the
// C0 controls (ESC, BEL, CR) itself, and leaves C1 and the bidi characters as the JSON grammar allows.

import { terminalSafe } from './terminalSafe.js';
import { COLOURED, PLAIN, renderMarks, type Style, showsColour } from './terminalStyle.js';

export class OutputSink {
  /** The style for text written here: colour marks on a terminal that shows colour, none elsewhere. */
  readonly style: Style;
  readonly #stream: NodeJS.WritableStream;
  readonly #colour: boolean;

  constructor(stream: NodeJS.WritableStream & { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env) {
    this.#stream = stream;
    this.#colour = showsColour(stream, env);
    this.style = this.#colour ? COLOURED : PLAIN;
  }

  /** Text for a person, as many lines as it holds. */
  text(text: string): void {
    this.#stream.write(renderMarks(text, this.#colour, terminalSafe));
  }

  /** One line (or block) for a person. */
  line(text: string): void {
    this.text(`${text}\n`);
  }

  /** One JSON value for a program, on a line of its own (or pretty-printed over several with `indent`). */
  json(value: unknown, indent?: number): void {
    this.#stream.write(`${JSON.stringify(value, null, indent)}\n`);
  }
}

/** The process's stdout, made anew each time: what it is (a terminal, a pipe) is read as it is asked for. */
export function stdoutSink(): OutputSink {
  return new OutputSink(process.stdout);
}

export function stderrSink(): OutputSink {
  return new OutputSink(process.stderr);
}
