import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config/errors.js';
import {
  FilterPolicyError,
  SlackWebhookUrlError,
  SmtpConfigError,
  SubscriberConfigError,
  WebhookSecretError,
  WebhookUrlError,
} from '../../../shared/delivery/errors.js';
import { FixByHandError } from '../../../shared/errors/fixByHandError.js';
import { InternalError } from '../../../shared/errors/internalError.js';
import { EXIT_FAILURE, EXIT_USAGE, NotifierError } from '../../../shared/errors/notifierError.js';
import { TransientError } from '../../../shared/errors/transientError.js';
import { StateFileError } from '../../../shared/store/errors.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Where the project's own errors live; test/ and bench/ may throw what they like. */
const SOURCE_DIRECTORIES = ['shared', 'functions', 'cli', 'simulator', 'infra'];
const BUILT_IN_ERRORS = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
  'DOMException',
]);
// `class X extends Y`, `class X<T> extends Y` and `class extends Y` (a class expression), exported or not;
// `extends Z.Y` keeps the qualified name.
const CLASS_DECLARATION =
  /\b(export\s+(?:abstract\s+)?)?class(?:\s+(\w+))?(?:\s*<[^{]*?>)?\s+extends\s+([\w.]+)/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** The three kinds of error there are; every class extends one of them. */
const BASES = new Map<string, ErrorClass>([
  ['FixByHandError', FixByHandError],
  ['TransientError', TransientError],
  ['InternalError', InternalError],
]);
/**
 * The only classes that write `get exitCode` or `get userFacing`: the root declares them, the bases answer
 * them, and these few answer one differently from their base, each for the reason beside it.
 */
const GETTER_WRITERS = [
  'NotifierError.exitCode',
  'NotifierError.userFacing',
  ...[...BASES.keys()].flatMap((base) => [`${base}.exitCode`, `${base}.userFacing`]),
  // Exit 2 only when starting again cannot open the file: the one exit code that depends on state.
  'StateFileError.exitCode',
  // A bug, and a fix by hand, in the state store's family: each must stay a StateStoreError, which the
  // store's callers catch, so neither can extend InternalError or FixByHandError as well.
  'StoreInputError.userFacing',
  'SqliteAddonMismatchError.exitCode',
].sort();
// `get exitCode` / `get userFacing`, declared (abstract) or defined, in any class.
const GETTER = /\bget\s+(exitCode|userFacing)\s*\(/g;
// A class's head up to its body, named or not: `class X<T> extends Y<T> implements Z {`, never the word in prose.
const ANY_CLASS =
  /\bclass(?:\s+(\w+))?(?:\s*<[^{]*?>)?(?:\s+extends\s+[\w.]+(?:<[^{]*?>)?)?(?:\s+implements\s+[\w.,<>\s]+?)?\s*\{/g;

interface DeclaredClass {
  file: string;
  /** `(anonymous)` for a class expression. */
  name: string;
  base: string;
  exported: boolean;
}

/** Every class in the source whose base is an error by its name: a built-in one, or one of ours. */
function declaredErrorClasses(): DeclaredClass[] {
  return SOURCE_DIRECTORIES.flatMap(sourceFiles).flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(CLASS_DECLARATION)]
      .map(([, exported, name, base = '']) => ({
        file,
        name: name ?? '(anonymous)',
        base: base.split('.').pop() ?? base,
        exported: exported !== undefined && name !== undefined,
      }))
      .filter(({ base }) => BUILT_IN_ERRORS.has(base) || /(Error|Exception)$/.test(base)),
  );
}

const declared = declaredErrorClasses();

/** `Class.getter` for every `get exitCode` or `get userFacing` in the source, by the class it sits in. */
function getterWriters(): string[] {
  return SOURCE_DIRECTORIES.flatMap(sourceFiles).flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const classes = [...text.matchAll(ANY_CLASS)].map((match) => ({
      at: match.index,
      name: match[1] ?? '(anonymous)',
    }));
    return [...text.matchAll(GETTER)].map((match) => {
      // The class declared last before the getter: error classes do not nest.
      const owner = classes.filter(({ at }) => at < match.index).pop()?.name ?? `${file} (no class)`;
      return `${owner}.${match[1]}`;
    });
  });
}

/** Every error class the product modules export, by name (only the modules that declare one are loaded). */
async function exportedErrorClasses(): Promise<Map<string, ErrorClass>> {
  // Only the modules that export one: others may do work at import (a handler parses its environment).
  const files = [...new Set(declared.filter(({ exported }) => exported).map(({ file }) => file))];
  const classes = new Map<string, ErrorClass>();
  for (const file of files) {
    const exports: Record<string, unknown> = await import(join(ROOT, file));
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value === 'function' && value.prototype instanceof Error)
        classes.set(`${file}: ${name}`, value as ErrorClass);
    }
  }
  return classes;
}

describe('every error class of the notifier', () => {
  it('is found by the scan, so the checks below are not vacuous', () => {
    const names = declared.map(({ name }) => name);
    // One per directory the scan must reach, and the class the issue was about.
    expect(names).toEqual(
      expect.arrayContaining([
        'ConfigError',
        'SubscriberConfigError',
        'LambdaEnvironmentError',
        'CliUsageError',
        'DeploymentError',
      ]),
    );
    // Well under today's 50, so that merging or removing a few classes does not trip it.
    expect(declared.length).toBeGreaterThanOrEqual(30);
  });

  it('extends NotifierError, directly or through another of ours: only the root extends Error itself', () => {
    const onBuiltIn = declared.filter(({ base }) => BUILT_IN_ERRORS.has(base)).map(({ name }) => name);
    expect(onBuiltIn).toEqual(['NotifierError']);
  });

  it("extends none of a library's errors (CommanderError, an AWS SDK exception), whose exit code nobody set", () => {
    const ours = new Set(declared.map(({ name }) => name));
    const onForeign = declared
      .filter(({ base }) => !BUILT_IN_ERRORS.has(base) && !ours.has(base))
      .map(({ file, name, base }) => `${file}: ${name} extends ${base}`);
    expect(onForeign).toEqual([]);
  });

  it('is a NotifierError at run time, for every error class its module exports', async () => {
    const strays = [...(await exportedErrorClasses())]
      .filter(([, value]) => value !== NotifierError && !(value.prototype instanceof NotifierError))
      .map(([where]) => where);
    // Through the prototype chain, whatever the source looks like (an alias, a re-export, a class expression).
    expect(strays).toEqual([]);
  });

  it('extends FixByHandError, TransientError or InternalError, directly or through another of ours', () => {
    const baseOf = new Map(declared.map(({ name, base }) => [name, base]));
    const kindless = declared
      .filter(({ name }) => name !== 'NotifierError' && !BASES.has(name))
      .filter(({ base }) => {
        let ancestor = base;
        const seen = new Set<string>();
        while (!BASES.has(ancestor) && baseOf.has(ancestor) && !seen.has(ancestor)) {
          seen.add(ancestor);
          ancestor = baseOf.get(ancestor) ?? ancestor;
        }
        return !BASES.has(ancestor);
      })
      .map(({ file, name, base }) => `${file}: ${name} extends ${base}`);
    expect(kindless).toEqual([]);
    // And the bases themselves sit right on the root.
    const onRoot = declared.filter(({ base }) => base === 'NotifierError').map(({ name }) => name);
    expect(onRoot.sort()).toEqual([...BASES.keys()].sort());
  });

  it('is one of the three bases at run time, for every error class its module exports', async () => {
    const kindless = [...(await exportedErrorClasses())]
      .filter(([, value]) => value !== NotifierError && !BASES.has(value.name))
      .filter(([, value]) => ![...BASES.values()].some((base) => value.prototype instanceof base))
      .map(([where]) => where);
    expect(kindless).toEqual([]);
  });

  it('leaves exitCode and userFacing to its base, but for the documented exceptions', () => {
    expect(getterWriters().sort()).toEqual(GETTER_WRITERS);
  });
});

describe('the three bases', () => {
  class PantryClosedError extends FixByHandError {}
  class PantryBusyError extends TransientError {}
  class PantryMiscountedError extends InternalError {}

  it.each([
    [
      'FixByHandError: only a fix by hand helps, exit 2, one line',
      new PantryClosedError('x'),
      EXIT_USAGE,
      true,
    ],
    [
      'TransientError: running again may help, exit 1, one line',
      new PantryBusyError('x'),
      EXIT_FAILURE,
      true,
    ],
    ['InternalError: a bug, exit 1, a bug report', new PantryMiscountedError('x'), EXIT_FAILURE, false],
  ])('%s', (_, error, exitCode, userFacing) => {
    expect(error).toBeInstanceOf(NotifierError);
    expect(error.exitCode).toBe(exitCode);
    expect(error.userFacing).toBe(userFacing);
  });
});

describe('NotifierError', () => {
  class ExampleError extends FixByHandError {}

  it('names every instance after its concrete class, once, in the base', () => {
    class NarrowerExampleError extends ExampleError {}
    expect(new ExampleError('x').name).toBe('ExampleError');
    expect(new NarrowerExampleError('x').name).toBe('NarrowerExampleError');
    expect(String(new NarrowerExampleError('what went wrong'))).toBe('NarrowerExampleError: what went wrong');
  });

  it('keeps the cause it is given, and has none when given none', () => {
    const cause = new Error('EACCES');
    expect(new ExampleError('x', { cause }).cause).toBe(cause);
    expect('cause' in new ExampleError('x')).toBe(false);
    expect('cause' in new ExampleError('x', {})).toBe(false);
  });

  it('keeps exitCode and userFacing off the instance, so structured logs that spread an error do not carry them', () => {
    const error = new ConfigError('notifier.json', []);
    expect(error.exitCode).toBe(EXIT_USAGE);
    expect(Object.keys(error)).not.toContain('exitCode');
    expect(JSON.parse(JSON.stringify(error))).not.toHaveProperty('userFacing');
    const keys: string[] = [];
    for (const key in error) keys.push(key);
    expect(keys).not.toContain('exitCode');
  });

  it('lets a class derive its exit code from its state: a state file is exit 2 only when retrying cannot help', () => {
    const path = '/var/lib/meal-notifier/state.db';
    expect(new StateFileError(path, 'permission denied', { retryable: false }).exitCode).toBe(EXIT_USAGE);
    expect(new StateFileError(path, 'locked', { retryable: true }).exitCode).toBe(EXIT_FAILURE);
  });
});

describe('SubscriberConfigError', () => {
  it('is named after its class, and each subclass after its own', () => {
    expect(new SubscriberConfigError('webhook subscriber "ops": bad').name).toBe('SubscriberConfigError');
    expect(new FilterPolicyError('filter has 180 value combinations').name).toBe('FilterPolicyError');
    expect(new WebhookSecretError('is empty', { subscriberId: 'ops' }).name).toBe('WebhookSecretError');
    expect(new WebhookUrlError('ops', 'not https').name).toBe('WebhookUrlError');
    expect(new SmtpConfigError('office', 'no recipients').name).toBe('SmtpConfigError');
    expect(new SlackWebhookUrlError('kitchen').name).toBe('SlackWebhookUrlError');
  });

  it('is a mistake in the config for a person to fix: exit 2, one line', () => {
    const error = new WebhookUrlError('ops', 'not https');
    expect(error).toBeInstanceOf(NotifierError);
    expect(error.exitCode).toBe(EXIT_USAGE);
    expect(error.userFacing).toBe(true);
  });
});
