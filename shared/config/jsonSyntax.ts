// Locates the first syntax error in a JSON text by line and column (through jsonc-parser, with comments
// and trailing commas disallowed), worded for a person editing a config. The platform's own SyntaxError
// is not used: its message may quote the surrounding text, which can be a secret.
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

export interface JsonSyntaxError {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  message: string;
}

/** The first syntax error in `text`, or undefined when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const first = parseErrors(text)[0];
  if (!first) return undefined;
  const { offset, message } = describe(text, first);
  return { ...lineAndColumn(text, offset), message };
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

/** Where to point and what to say; hints for the usual non-JSON habits, never quoting the text. */
function describe(text: string, { error, offset }: ParseError): { offset: number; message: string } {
  const char = text[offset];
  const before = previousToken(text, offset);
  switch (printParseErrorCode(error)) {
    case 'PropertyNameExpected':
    case 'ValueExpected':
      if ((char === '}' || char === ']') && text[before] === ',') {
        return { offset: before, message: `trailing comma before "${char}"` };
      }
      if (char === undefined) return { offset, message: 'unexpected end of file: a value is missing' };
      return { offset, message: 'expected a value' };
    case 'CommaExpected':
      // Pointed at the end of the value before: a missing comma is usually at the end of that line.
      return { offset: before + 1, message: 'expected "," between two values' };
    case 'InvalidSymbol':
      if (isCompleteDocument(text.slice(0, offset))) {
        return { offset, message: 'unexpected text after the end of the JSON document' };
      }
      if (char === "'") return { offset, message: 'strings and property names must use double quotes' };
      if (char === '#' || char === '/') return { offset, message: 'comments are not allowed in JSON' };
      if (char !== undefined && /[A-Za-z_]/.test(char)) {
        return { offset, message: 'unquoted text; strings and property names must be in double quotes' };
      }
      return { offset, message: 'unexpected character' };
    case 'InvalidCommentToken':
      return { offset, message: 'comments are not allowed in JSON' };
    case 'UnexpectedEndOfString':
      return { offset, message: 'unterminated string' };
    case 'CloseBraceExpected':
      return { offset, message: 'unexpected end of file: an object is not closed' };
    case 'CloseBracketExpected':
      return { offset, message: 'unexpected end of file: a list is not closed' };
    case 'EndOfFileExpected':
      return { offset, message: 'unexpected text after the end of the JSON document' };
    case 'InvalidNumberFormat':
      return { offset, message: 'invalid number' };
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      return { offset, message: 'invalid escape sequence in a string' };
    case 'InvalidCharacter':
      return { offset, message: 'control characters in a string must be escaped' };
    default:
      return { offset, message: 'invalid JSON' };
  }
}

function isCompleteDocument(text: string): boolean {
  return text.trim() !== '' && parseErrors(text).length === 0;
}

function parseErrors(text: string): ParseError[] {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors;
}

/** Offset of the last non-blank character before `offset`. */
function previousToken(text: string, offset: number): number {
  let at = offset - 1;
  while (at > 0 && /\s/.test(text[at] ?? '')) at--;
  return at;
}
