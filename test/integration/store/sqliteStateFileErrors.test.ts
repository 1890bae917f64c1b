// A state file the SQLite adapter cannot open is named with its cause and its fix, and says whether
// starting again can help: only a lock held by another process or a passing disk problem can.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateFileError } from '../../../shared/store/errors.js';
import { SCHEMA_VERSION } from '../../../shared/store/sqlite/sqliteSchema.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'state-file-errors-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function openError(path: string, busyTimeoutMs = 5_000): StateFileError {
  try {
    new SqliteStateStore({ path, busyTimeoutMs }).close();
  } catch (error) {
    if (error instanceof StateFileError) return error;
    throw error;
  }
  throw new Error(`${path} opened`);
}

// Root may write anywhere: the permission cases are pinned by the CLI test, which runs as another user.
const isRoot = process.getuid?.() === 0;

describe('SqliteStateStore refuses a state file it cannot use, saying why and what to do', () => {
  it.skipIf(isRoot)('names a directory it may not write to', () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    const path = join(locked, 'state.db');
    const error = openError(path);
    expect(error.message).toMatch(
      new RegExp(
        `^cannot open state file ${path}: permission denied \\(directory ${locked} is not writable by user .+\\); `,
      ),
    );
    expect(error.retryable).toBe(false);
  });

  it.skipIf(isRoot)('names the parent it cannot create the directory in', () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    const path = join(locked, 'state', 'state.db');
    expect(openError(path).message).toContain(
      `directory ${join(locked, 'state')} does not exist and cannot be created (${locked} is not writable by user`,
    );
  });

  it('names a directory given as the file, and a file standing where a directory should', () => {
    expect(openError(dir).message).toBe(
      `cannot open state file ${dir}: it is a directory; set state.path to a file in it, e.g. ${join(dir, 'state.db')}`,
    );
    writeFileSync(join(dir, 'notes'), 'x');
    const error = openError(join(dir, 'notes', 'state.db'));
    expect(error.message).toContain(`: ${join(dir, 'notes')} is a file, not a directory; fix state.path`);
    expect(error.retryable).toBe(false);
  });

  it('says a file that is not a SQLite database is not one', () => {
    const path = join(dir, 'notifier.json');
    writeFileSync(path, '{ "api": {} }'.repeat(100));
    const error = openError(path);
    expect(error.message).toMatch(/: it is not a SQLite database \(SQLITE_NOTADB\); set state\.path /);
    expect(error.retryable).toBe(false);
  });

  it('says which version wrote a newer state file', () => {
    const path = join(dir, 'state.db');
    new SqliteStateStore({ path }).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const error = openError(path);
    expect(error.message).toBe(
      `cannot open state file ${path}: a newer meal-notifier wrote it (schema version ${SCHEMA_VERSION + 1}; this one reads up to ${SCHEMA_VERSION}); run that version or a later one, or point state.path at another file`,
    );
    expect(error.retryable).toBe(false);
  });

  it('leaves a state file another process keeps locked to a later try', () => {
    const path = join(dir, 'state.db');
    new SqliteStateStore({ path }).close();
    const raw = new Database(path);
    raw.prepare('BEGIN IMMEDIATE').run();
    try {
      const error = openError(path, 0);
      expect(error.message).toMatch(/: another process kept it locked \(SQLITE_BUSY\); /);
      expect(error.retryable).toBe(true);
    } finally {
      raw.prepare('ROLLBACK').run();
      raw.close();
    }
  });
});
