// Turns zod issues into config problems: one `$.json.path: message` each, in words a config author
// understands, with unions narrowed to the form the author evidently meant.
import type * as z from 'zod';
import { kindOf } from './describeValue.js';
import type { ConfigProblem } from './errors.js';

/** `$` for the root, `.key` for plain keys, `[0]` for indexes, `["odd key"]` for anything else. */
export function jsonPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((path, segment) => {
    if (typeof segment === 'number') return `${path}[${segment}]`;
    if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) return `${path}.${segment}`;
    return `${path}[${typeof segment === 'string' ? JSON.stringify(segment) : String(segment)}]`;
  }, '$');
}

const EXPECTED: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};

/**
 * Per-parse error map for the messages no schema words itself. Zod's defaults would say
 * "expected string, received undefined" for a missing key.
 */
export const configErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'required';
  return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${kindOf(issue.input)}`;
};

export function problemsFromZodError(error: z.ZodError): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  collect(error.issues, [], problems);
  // Union branches can repeat an issue already reported; one line per distinct problem.
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.path}\n${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function collect(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[],
  into: ConfigProblem[],
): void {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      collect(meantBranch(issue.errors), path, into);
    } else if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) {
      into.push({ path: jsonPath(path), message: issue.message, place: jsonPath([...path, issue.keys[0]]) });
    } else {
      into.push({ path: jsonPath(path), message: issue.message });
    }
  }
}

/**
 * "Invalid input" for a failed union helps nobody. The branch whose shape matched (no type mismatch at
 * its root) knows what is wrong inside it; when none matched, the first branch, the simplest form, speaks.
 */
function meantBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] {
  const matched = branches.find(
    (branch) => !branch.some((issue) => issue.code === 'invalid_type' && issue.path.length === 0),
  );
  return matched ?? branches[0] ?? [];
}

/**
 * The problems in the order their places appear in the file (`json`, as parsed), so that one list from
 * several checks reads top to bottom: every command that refuses a config lists it this way. Problems at
 * the same place keep their order, a place the file does not have (a missing key) comes after its
 * siblings, and an unknown key, reported on its object, sits where the key itself is written.
 */
export function inDocumentOrder(problems: readonly ConfigProblem[], json: unknown): ConfigProblem[] {
  const positions = new Map(problems.map((problem) => [problem, documentPosition(placeOf(problem), json)]));
  return [...problems].sort((a, b) => comparePositions(positions.get(a) ?? [], positions.get(b) ?? []));
}

/** Where the problem is written: its path, or for an unknown key the key's own place. */
function placeOf({ path, place }: ConfigProblem): string {
  return place ?? path;
}

const PATH_SEGMENT = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;

/** For each segment of a jsonPath, its index among its parent's keys or items. */
function documentPosition(path: string, json: unknown): number[] {
  const position: number[] = [];
  let value: unknown = json;
  PATH_SEGMENT.lastIndex = 1;
  for (let match = PATH_SEGMENT.exec(path); match; match = PATH_SEGMENT.exec(path)) {
    const [, plain, index, quotedKey] = match;
    if (index !== undefined) {
      position.push(Number(index));
      value = Array.isArray(value) ? value[Number(index)] : undefined;
      continue;
    }
    const key = plain ?? (JSON.parse(quotedKey ?? '""') as string);
    const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
    const at = keys.indexOf(key);
    position.push(at < 0 ? Number.MAX_SAFE_INTEGER : at);
    value = at < 0 ? undefined : (value as Record<string, unknown>)[key];
  }
  return position;
}

function comparePositions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}
