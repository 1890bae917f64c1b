import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError, lineAndColumn } from '../../../shared/config/jsonSyntax.js';

describe('findJsonSyntaxError', () => {
  it.each([
    {
      mistake: 'a trailing comma in an object',
      text: '{\n  "a": 1,\n}',
      at: [2, 9],
      message: 'trailing comma before "}"',
    },
    {
      mistake: 'a trailing comma in a list',
      text: '{"a": [1, 2,]}',
      at: [1, 12],
      message: 'trailing comma before "]"',
    },
    {
      mistake: 'a missing comma between properties',
      text: '{\n  "a": 1\n  "b": 2\n}',
      at: [2, 9],
      message: 'expected "," or "}" after a property value',
    },
    {
      mistake: 'a missing comma between list elements',
      text: '["a" "b"]',
      at: [1, 5],
      message: 'expected "," or "]" after a list element',
    },
    {
      mistake: 'an unquoted property name',
      text: '{ api: {} }',
      at: [1, 3],
      message: 'expected a property name in double quotes; text must be in double quotes',
    },
    {
      mistake: 'a single-quoted name',
      text: "{'api': {}}",
      at: [1, 2],
      message: 'property names must use double quotes',
    },
    {
      mistake: 'a single-quoted value',
      text: '{"a": \'x\'}',
      at: [1, 7],
      message: 'strings must use double quotes',
    },
    {
      mistake: 'a comment',
      text: '{\n  // polling\n  "a": 1\n}',
      at: [2, 3],
      message: 'comments are not allowed in JSON',
    },
    {
      mistake: 'an unquoted word as a value',
      text: '{"token": hunter2}',
      at: [1, 11],
      message: 'expected a value; text must be in double quotes',
    },
    {
      mistake: 'a missing colon',
      text: '{"a" 1}',
      at: [1, 6],
      message: 'expected ":" after a property name',
    },
    { mistake: 'an unterminated string', text: '{"a": "x}', at: [1, 7], message: 'unterminated string' },
    {
      mistake: 'a string broken across lines',
      text: '{"a": "x\ny"}',
      at: [1, 7],
      message: 'unterminated string: a string cannot span lines',
    },
    {
      mistake: 'a raw tab in a string',
      text: '{"a": "x\ty"}',
      at: [1, 9],
      message: 'control characters in a string must be escaped',
    },
    {
      mistake: 'a bad escape',
      text: '{"a": "C:\\dir"}',
      at: [1, 10],
      message: 'invalid escape sequence in a string',
    },
    {
      mistake: 'a short unicode escape',
      text: '["\\u12"]',
      at: [1, 3],
      message: 'invalid escape sequence in a string',
    },
    { mistake: 'a leading zero', text: '{"a": 007}', at: [1, 7], message: 'invalid number' },
    { mistake: 'a bare decimal point', text: '[1.]', at: [1, 2], message: 'invalid number' },
    { mistake: 'a lone minus', text: '[-]', at: [1, 2], message: 'invalid number' },
    {
      mistake: 'an unclosed object',
      text: '{"a": 1',
      at: [1, 8],
      message: 'unexpected end of file: an object is not closed',
    },
    {
      mistake: 'an unclosed list',
      text: '[1, 2',
      at: [1, 6],
      message: 'unexpected end of file: a list is not closed',
    },
    { mistake: 'a missing value', text: '{"a": }', at: [1, 7], message: 'expected a value' },
    {
      mistake: 'a value cut off',
      text: '{"a":',
      at: [1, 6],
      message: 'unexpected end of file: a value is missing',
    },
    {
      mistake: 'text after the document',
      text: '{"a": 1}\n{"b": 2}',
      at: [2, 1],
      message: 'unexpected text after the end of the JSON document',
    },
  ])('locates $mistake', ({ text, at, message }) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(findJsonSyntaxError(text)).toEqual({ line: at[0], column: at[1], message });
  });

  it.each([
    '{}',
    '[]',
    ' {"a": [1, -2.5e3, 0, true, false, null, "x\\n\\u00e9\\"", {}]}\r\n',
    '"just a string"',
    '{"nested": {"deeper": [[[{"x": 1E+2}]]]}}',
  ])('finds nothing wrong in valid JSON %j', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(findJsonSyntaxError(text)).toBeUndefined();
  });

  it('reports pathological nesting instead of overflowing the stack', () => {
    const text = '['.repeat(100_000);
    expect(findJsonSyntaxError(text)?.message).toBe('nested too deeply');
  });

  it('counts columns from the last newline of a CRLF file', () => {
    expect(lineAndColumn('{\r\n  "a": 1\r\n}', 6)).toEqual({ line: 2, column: 4 });
  });
});
