// The CLI writes to stdout and stderr only through its output sink (cli/output/outputSink.ts), which shows
// the control characters of data instead of letting the terminal obey them: no other module of cli/ or
// simulator/ calls console, reaches process.stdout or process.stderr (or fds 1 and 2, or /dev/tty), or
// takes a Node stream to write to. So a command cannot print a name from the API past the sink, even by
// mistake. A lint of the source text, as TypeScript 7 has no JavaScript API to ask for types with.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SINK = 'cli/output/outputSink.ts';
/** Modules that read a standard stream's state and never write to it, each with what it reads. */
const READING_ONLY: Record<string, string> = {
  'cli/runtime/closedOutput.ts': "listens for each stream's EPIPE, to end quietly when the reader goes",
  'cli/output/outputWidth.ts': "reads stdout's width, to fit tables to the terminal",
};

interface Rule {
  what: string;
  pattern: RegExp;
  /** Modules the rule does not apply to. */
  except: readonly string[];
}

const RULES: readonly Rule[] = [
  { what: 'console', pattern: /\bconsole\s*\??\.\s*\w+/, except: [] },
  {
    what: 'a standard stream',
    pattern:
      /\bprocess\s*\??\.\s*(?:stdout|stderr)\b|\bprocess\s*\[\s*['"`](?:stdout|stderr)|\{[^}]*\b(?:stdout|stderr)\b[^}]*\}\s*=\s*(?:globalThis\.)?process\b/,
    except: [SINK, ...Object.keys(READING_ONLY)],
  },
  {
    what: 'a standard stream from node:process',
    pattern: /import\s*\{[^}]*\b(?:stdout|stderr)\b[^}]*\}\s*from\s*['"](?:node:)?process['"]/,
    except: [],
  },
  {
    what: 'file descriptor 1 or 2, or a terminal device',
    pattern:
      /\b(?:writeSync|write|writev|createWriteStream)\s*\(\s*[12]\s*[,)]|\/dev\/(?:tty|stdout|stderr)\b/,
    except: [],
  },
  {
    what: 'a Node stream to write to',
    pattern:
      /\bNodeJS\s*\.\s*(?:WritableStream|WriteStream)\b|\b(?:Writable|WriteStream)\b[^;\n]*from\s*['"](?:node:)?(?:stream|tty)['"]/,
    except: [SINK, 'cli/runtime/closedOutput.ts'],
  },
  {
    what: 'a write to a stream it only reads',
    pattern: /\.\s*(?:write|end)\s*\(/,
    // Applies to those modules only: see `violations`.
    except: [],
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a module without its comments (whole-line ones, JSDoc blocks, and ` // …` after code). */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => (/^\s*\/\//.test(line) ? '' : line.replace(/\s\/\/\s.*$/, '')))
    .join('\n');
}

/** `rule.what` and the line, for each line of `file`'s code a rule forbids there. */
function violations(file: string, text: string): string[] {
  const found: string[] = [];
  codeOf(text)
    .split('\n')
    .forEach((line, index) => {
      for (const rule of RULES) {
        const onlyFor = rule.what === 'a write to a stream it only reads';
        const applies = onlyFor ? file in READING_ONLY : !rule.except.includes(file);
        if (applies && rule.pattern.test(line))
          found.push(`${file}:${index + 1}: ${rule.what}: ${line.trim()}`);
      }
    });
  return found;
}

describe('human output goes through the output sink', () => {
  it('no module of cli/ or simulator/ but the sink writes to stdout or stderr, nor names them to write to', () => {
    const found = ['cli', 'simulator']
      .flatMap(sourceFiles)
      .flatMap((file) => violations(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the sink is there, and the modules that only read a stream are', () => {
    for (const file of [SINK, ...Object.keys(READING_ONLY)]) {
      expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/process\.(?:stdout|stderr)/);
    }
  });

  it.each([
    ['process.stdout.write(table);'],
    ["  process.stderr.write(line + '\\n');"],
    ['console.log(order.reference);'],
    ['globalThis.console.error(message);'],
    ["const out = process['stdout'];"],
    ['const { stdout, env } = process;'],
    ["import { stderr } from 'node:process';"],
    ['writeSync(1, text);'],
    ["const tty = openSync('/dev/tty', 'w');"],
    ['export function print(stream: NodeJS.WritableStream, text: string) {'],
    ["import { Writable } from 'node:stream';"],
  ])('catches a way past the sink: %s', (line) => {
    expect(violations('cli/commands/someCommand.ts', line)).toHaveLength(1);
  });

  it.each([
    ['stdoutSink().line(formatOrdersTable(orders, outputWidth()));'],
    ['// process.stdout.write would print the reference as it came'],
    ['/** Not console.log: the sink. */'],
    ['writeSync(fd, JSON.stringify(event));'],
    ['const answer = await fetch(url); // console.log(answer) was here'],
  ])('lets the sink and comments be: %s', (line) => {
    expect(violations('cli/commands/someCommand.ts', line)).toEqual([]);
  });

  it('lets a module that reads a stream read it, and not write to it', () => {
    const file = 'cli/output/outputWidth.ts';
    expect(violations(file, 'stdout: { columns?: number } = process.stdout,')).toEqual([]);
    expect(violations(file, 'process.stdout.write(String(columns));')).toHaveLength(1);
  });
});
