// check-config's look at a state file that is there: it fails as the runner's start-up would (the same
// StateFileError), and leaves the file as it found it: nothing created beside it, nothing migrated.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateFileError } from '../../../shared/store/errors.js';
import { checkStateFile } from '../../../shared/store/sqlite/checkStateFile.js';
import { SCHEMA_VERSION } from '../../../shared/store/sqlite/sqliteSchema.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-state-file-'));
  path = join(dir, 'state.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What the check throws, next to what opening the file to run throws. */
function bothErrors(): [StateFileError, StateFileError] {
  const checked = errorOf(() => checkStateFile(path));
  const opened = errorOf(() => new SqliteStateStore({ path }).close());
  return [checked, opened];
}

function errorOf(action: () => void): StateFileError {
  try {
    action();
  } catch (error) {
    if (error instanceof StateFileError) return error;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

function versionOf(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

describe('checkStateFile', () => {
  it("accepts this version's file and an older one, without migrating it or creating anything beside it", () => {
    new SqliteStateStore({ path }).close();
    expect(() => checkStateFile(path)).not.toThrow();
    const raw = new Database(path);
    raw.pragma('user_version = 1');
    raw.close();
    const files = readdirSync(dir);

    expect(() => checkStateFile(path)).not.toThrow();
    expect(readdirSync(dir)).toEqual(files);
    expect(versionOf(path)).toBe(1);
  });

  it('accepts an empty file, which the runner takes for a new database', () => {
    writeFileSync(path, '');
    expect(() => checkStateFile(path)).not.toThrow();
    expect(readFileSync(path)).toHaveLength(0);
  });

  it('refuses a file that is not a SQLite database as the runner does, and leaves it alone', () => {
    const text = 'not a database, but long enough to hold a header of a hundred bytes: '.repeat(3);
    writeFileSync(path, text);
    const [checked, opened] = bothErrors();
    expect(checked.message).toBe(opened.message);
    expect(checked.message).toContain('it is not a SQLite database (SQLITE_NOTADB)');
    expect(checked.exitCode).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe(text);
    writeFileSync(path, 'short');
    expect(errorOf(() => checkStateFile(path)).message).toBe(checked.message);
  });

  it('refuses a file a newer version wrote as the runner does, from its header while no runner has it open', () => {
    const raw = new Database(path);
    raw.pragma('journal_mode = WAL');
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const files = readdirSync(dir);
    const [checked, opened] = bothErrors();
    expect(checked.message).toBe(opened.message);
    expect(checked.message).toContain(
      `(schema version ${SCHEMA_VERSION + 1}; this one reads up to ${SCHEMA_VERSION})`,
    );
    expect(readdirSync(dir)).toEqual(files);
  });

  it('reads the version through SQLite while a runner holds the file, whose newest pages are in its -wal', () => {
    const running = new Database(path);
    try {
      running.pragma('journal_mode = WAL');
      running.pragma('wal_autocheckpoint = 0');
      running.exec('CREATE TABLE t (a)');
      running.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      expect(errorOf(() => checkStateFile(path)).message).toContain(
        `(schema version ${SCHEMA_VERSION + 1}; this one reads up to ${SCHEMA_VERSION})`,
      );
    } finally {
      running.close();
    }
  });
});
