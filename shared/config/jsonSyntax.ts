// Locates the first syntax error in a JSON text by line and column, worded for a person editing a config.
// The platform's own SyntaxError is not used: it may quote the surrounding text, which can be a secret.

export interface JsonSyntaxError {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  message: string;
}

/** The first syntax error in `text`, or undefined when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    new Scanner(text).document();
    return undefined;
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    return { ...lineAndColumn(text, error.offset), message: error.message };
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text[index] === '\n') {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class Failure {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

// Far deeper than any config; it only keeps a pathological file from exhausting the stack.
const MAX_DEPTH = 512;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** A recursive-descent validator for RFC 8259 JSON that stops at the first error. */
class Scanner {
  #at = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.value(0);
    this.skipWhitespace();
    if (this.#at < this.text.length)
      this.fail(this.#at, 'unexpected text after the end of the JSON document');
  }

  private value(depth: number): void {
    if (depth > MAX_DEPTH) this.fail(this.#at, 'nested too deeply');
    this.skipWhitespace();
    const char = this.text[this.#at];
    if (char === '{') {
      this.object(depth);
    } else if (char === '[') {
      this.array(depth);
    } else if (char === '"') {
      this.string();
    } else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      this.number();
    } else {
      this.literal(char);
    }
  }

  private literal(char: string | undefined): void {
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.#at)) {
        this.#at += literal.length;
        return;
      }
    }
    if (char === undefined) this.fail(this.#at, 'unexpected end of file: a value is missing');
    this.fail(this.#at, this.unexpected(char, 'expected a value'));
  }

  private object(depth: number): void {
    this.#at++;
    this.skipWhitespace();
    if (this.text[this.#at] === '}') {
      this.#at++;
      return;
    }
    let comma: number | undefined;
    for (;;) {
      this.skipWhitespace();
      const char = this.text[this.#at];
      if (char !== '"') {
        if (char === '}' && comma !== undefined) this.fail(comma, 'trailing comma before "}"');
        if (char === undefined) this.fail(this.#at, 'unexpected end of file: an object is not closed');
        this.fail(
          this.#at,
          char === "'"
            ? 'property names must use double quotes'
            : this.unexpected(char, 'expected a property name in double quotes'),
        );
      }
      this.string();
      this.skipWhitespace();
      if (this.text[this.#at] !== ':') this.fail(this.#at, 'expected ":" after a property name');
      this.#at++;
      this.value(depth + 1);
      const end = this.#at;
      this.skipWhitespace();
      const next = this.text[this.#at];
      if (next === '}') {
        this.#at++;
        return;
      }
      if (next !== ',') {
        // Reported where the value ends: a missing comma is usually at the end of that line.
        this.fail(
          next === undefined ? this.#at : end,
          next === undefined
            ? 'unexpected end of file: an object is not closed'
            : 'expected "," or "}" after a property value',
        );
      }
      comma = this.#at;
      this.#at++;
    }
  }

  private array(depth: number): void {
    this.#at++;
    this.skipWhitespace();
    if (this.text[this.#at] === ']') {
      this.#at++;
      return;
    }
    let comma: number | undefined;
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.#at] === ']' && comma !== undefined) this.fail(comma, 'trailing comma before "]"');
      this.value(depth + 1);
      const end = this.#at;
      this.skipWhitespace();
      const next = this.text[this.#at];
      if (next === ']') {
        this.#at++;
        return;
      }
      if (next !== ',') {
        this.fail(
          next === undefined ? this.#at : end,
          next === undefined
            ? 'unexpected end of file: a list is not closed'
            : 'expected "," or "]" after a list element',
        );
      }
      comma = this.#at;
      this.#at++;
    }
  }

  private string(): void {
    const start = this.#at;
    this.#at++;
    for (;;) {
      const char = this.text[this.#at];
      if (char === undefined) this.fail(start, 'unterminated string');
      if (char === '"') {
        this.#at++;
        return;
      }
      if (char === '\\') {
        const escaped = this.text[this.#at + 1];
        if (escaped === 'u' && HEX4.test(this.text.slice(this.#at + 2, this.#at + 6))) {
          this.#at += 6;
        } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) {
          this.#at += 2;
        } else {
          this.fail(this.#at, 'invalid escape sequence in a string');
        }
        continue;
      }
      if (char === '\n' || char === '\r') this.fail(start, 'unterminated string: a string cannot span lines');
      if (char < ' ') this.fail(this.#at, 'control characters in a string must be escaped');
      this.#at++;
    }
  }

  private number(): void {
    NUMBER.lastIndex = this.#at;
    const match = NUMBER.exec(this.text);
    const after = match ? this.#at + match[0].length : this.#at;
    // "01", "1.", "-" and "1e" stop the grammar early; the leftover would otherwise read as a missing comma.
    if (!match || /[\w.+-]/.test(this.text[after] ?? '')) this.fail(this.#at, 'invalid number');
    this.#at = after;
  }

  private skipWhitespace(): void {
    for (;;) {
      const char = this.text[this.#at];
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return;
      this.#at++;
    }
  }

  /** A hint for the usual non-JSON habits, without quoting the text around them. */
  private unexpected(char: string, fallback: string): string {
    if (char === '/' || char === '#') return 'comments are not allowed in JSON';
    if (char === "'") return 'strings must use double quotes';
    if (/[A-Za-z_]/.test(char)) return `${fallback}; text must be in double quotes`;
    return fallback;
  }

  private fail(offset: number, message: string): never {
    throw new Failure(offset, message);
  }
}
