// The line, column and wording of the first JSON syntax error in a config, never quoting the text.
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
      message: 'expected "," between two values',
    },
    {
      mistake: 'a missing comma in a list',
      text: '["a" "b"]',
      at: [1, 5],
      message: 'expected "," between two values',
    },
    {
      mistake: 'an unquoted property name',
      text: '{ api: {} }',
      at: [1, 3],
      message: 'unquoted text; strings and property names must be in double quotes',
    },
    {
      mistake: 'a single-quoted name',
      text: "{'api': {}}",
      at: [1, 2],
      message: 'strings and property names must use double quotes',
    },
    {
      mistake: 'a single-quoted value',
      text: '{"a": \'x\'}',
      at: [1, 7],
      message: 'strings and property names must use double quotes',
    },
    {
      mistake: 'a line comment',
      text: '{\n  // polling\n  "a": 1\n}',
      at: [2, 3],
      message: 'comments are not allowed in JSON',
    },
    {
      mistake: 'a block comment',
      text: '{ /* x */ "a": 1 }',
      at: [1, 3],
      message: 'comments are not allowed in JSON',
    },
    {
      mistake: 'an unquoted word as a value',
      text: '{"token": hunter2}',
      at: [1, 11],
      message: 'unquoted text; strings and property names must be in double quotes',
    },
    { mistake: 'an unterminated string', text: '{"a": "x', at: [1, 7], message: 'unterminated string' },
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
    {
      mistake: 'text after the document',
      text: '{}\nx',
      at: [2, 1],
      message: 'unexpected text after the end of the JSON document',
    },
    { mistake: 'a missing value', text: '{"a": }', at: [1, 7], message: 'expected a value' },
    {
      mistake: 'a bad escape',
      text: '{"a": "\\q"}',
      at: [1, 7],
      message: 'invalid escape sequence in a string',
    },
  ])('reports $mistake at line and column with a plain message', ({ text, at, message }) => {
    const error = findJsonSyntaxError(text);
    expect(error).toEqual({ line: at[0], column: at[1], message });
  });

  it('never quotes the text around the error', () => {
    const error = findJsonSyntaxError('{"token": s3cr3t-value}');
    expect(JSON.stringify(error)).not.toContain('s3cr3t');
  });

  it('finds nothing wrong in valid JSON', () => {
    expect(findJsonSyntaxError('{"a": [1, 2.5e3, true, null, "x\\u00e9"]}')).toBeUndefined();
  });
});

describe('lineAndColumn', () => {
  it('counts lines and columns from 1', () => {
    expect(lineAndColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
