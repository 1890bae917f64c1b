import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteBuiltUnoptimized } from '../../../bench/support/sqliteBuild.js';

const DEPFILE = 'build/Release/.deps/Release/obj.target/sqlite3/gen/sqlite3/sqlite3.o.d';

function packageCompiledWith(flags: string): string {
  const root = mkdtempSync(join(tmpdir(), 'better-sqlite3-'));
  const path = join(root, DEPFILE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `cmd_Release/obj.target/sqlite3/gen/sqlite3/sqlite3.o := cc -o sqlite3.o sqlite3.c -fPIC ${flags} -c\nsqlite3.o: sqlite3.c\n`,
  );
  return root;
}

describe('sqliteBuiltUnoptimized', () => {
  it('sees the -O0 that CFLAGS puts after the package’s own -O3, as .ci/run builds it', () => {
    expect(sqliteBuiltUnoptimized(packageCompiledWith('-std=c99 -w -O3 -O0'))).toBe(true);
  });

  it('passes the package’s own optimized build, and one CFLAGS optimizes further', () => {
    expect(sqliteBuiltUnoptimized(packageCompiledWith('-std=c99 -w -O3'))).toBe(false);
    expect(sqliteBuiltUnoptimized(packageCompiledWith('-O0 -O2'))).toBe(false);
  });

  it('passes a prebuilt binary, which leaves no compile command behind', () => {
    expect(sqliteBuiltUnoptimized(mkdtempSync(join(tmpdir(), 'better-sqlite3-')))).toBe(false);
  });
});
