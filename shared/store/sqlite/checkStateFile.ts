// Whether this meal-notifier can open the state file that is there, found without creating, migrating or
// writing anything (for check-config): a file that is not a SQLite database, or one a newer version
// wrote, fails as opening it to run would, with the same StateFileError.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StateFileTooNewError } from '../errors.js';
import { SCHEMA_VERSION } from './sqliteSchema.js';
import { stateFileError } from './stateFileError.js';

/** The first 100 bytes of every SQLite database file: its format string, and later its user_version. */
const HEADER_BYTES = 100;
const FORMAT = Buffer.from('SQLite format 3\0', 'latin1');
const USER_VERSION_OFFSET = 60;

/**
 * @param path absolute, of a file that exists
 * @throws StateFileError naming the file, the cause and the fix, as the runner's start-up would
 */
export function checkStateFile(path: string): void {
  try {
    const version = walInUse(path) ? versionFromSqlite(path) : versionFromHeader(path);
    if (version > SCHEMA_VERSION) throw new StateFileTooNewError(path, version, SCHEMA_VERSION);
  } catch (error) {
    throw stateFileError(path, error);
  }
}

/**
 * A runner has it open, or stopped without closing it: the newest pages may be in the -wal file, so SQLite
 * reads it, read-only. (Otherwise it would create a -wal and -shm file beside it, owned by whoever runs
 * the check, which the runner's user might not be able to write.)
 */
function walInUse(path: string): boolean {
  return existsSync(`${path}-wal`) && existsSync(`${path}-shm`);
}

function versionFromSqlite(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** With no -wal file, everything is in the file itself, header included. */
function versionFromHeader(path: string): number {
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  let length: number;
  try {
    length = readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  // SQLite takes an empty file for a new database, which the runner fills in.
  if (length === 0) return 0;
  // Not a database: SQLite says so itself (SQLITE_NOTADB), and creates nothing beside a file it cannot read.
  if (length < HEADER_BYTES || !header.subarray(0, FORMAT.length).equals(FORMAT)) {
    return versionFromSqlite(path);
  }
  return header.readInt32BE(USER_VERSION_OFFSET);
}
