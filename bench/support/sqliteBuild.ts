// Whether this tree's better-sqlite3 was compiled without optimization, as `.ci/run` compiles it to save CI
// time: SQLite figures measured with that build would be slower than any user's, and say nothing of it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The compile command node-gyp recorded for SQLite; absent when the install downloaded a prebuilt binary. */
const SQLITE_DEPFILE = 'build/Release/.deps/Release/obj.target/sqlite3/gen/sqlite3/sqlite3.o.d';

export function sqliteBuiltUnoptimized(
  packageRoot = dirname(dirname(createRequire(import.meta.url).resolve('better-sqlite3'))),
): boolean {
  let depfile: string;
  try {
    depfile = readFileSync(join(packageRoot, SQLITE_DEPFILE), 'utf8');
  } catch {
    return false;
  }
  const command = depfile.slice(0, depfile.indexOf('\n'));
  // The compiler takes the last -O it is given; CFLAGS come after the package's own -O3.
  const levels = command.match(/ -O\w*/g) ?? [];
  return levels.at(-1)?.trim() === '-O0';
}
