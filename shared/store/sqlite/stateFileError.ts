// Why the local state file could not be opened, in the operator's terms: the file or directory at fault,
// the cause and the fix. SQLite only says "unable to open database file", so the file system is asked
// directly; whether starting again can help decides the exit code (and so whether systemd restarts).
import { accessSync, constants, type Stats, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { StateFileError } from '../errors.js';

/** Types a failure to open (create, migrate) the state file at `path`, an absolute path. */
export function stateFileError(path: string, error: unknown): StateFileError {
  if (error instanceof StateFileError) return error;
  const code = codeOf(error);
  const fileSystem = fileSystemProblem(path);
  if (fileSystem !== undefined)
    return new StateFileError(path, fileSystem, { retryable: false, cause: error });
  const known = codeProblem(code);
  if (known !== undefined)
    return new StateFileError(path, known.reason, { retryable: known.retryable, cause: error });
  const detail = error instanceof Error ? error.message : String(error);
  // Unknown: perhaps passing (an I/O hiccup), so a restart is left to try.
  return new StateFileError(path, code === undefined ? detail : `${detail} (${code})`, {
    retryable: true,
    cause: error,
  });
}

/** What the file system refuses that SQLite needs: the file, its directory, or a parent to create it in. */
function fileSystemProblem(path: string): string | undefined {
  const user = currentUser();
  const file = statOf(path);
  if (file?.isDirectory()) {
    return `it is a directory; set state.path to a file in it, e.g. ${join(path, 'state.db')}`;
  }
  if (file) {
    const missing = missingAccess(path, [
      [constants.R_OK, 'readable'],
      [constants.W_OK, 'writable'],
    ]);
    if (missing === 'EROFS')
      return `permission denied (the file is on a read-only file system); ${WRITABLE_FIX}`;
    if (missing !== undefined) {
      return `permission denied (the file is not ${missing} by user ${user}); give ${user} read and write access to it`;
    }
  }
  const directory = dirname(path);
  // The deepest directory that exists: where SQLite creates the file, or where the missing ones would be.
  let existing = directory;
  while (statOf(existing) === undefined && dirname(existing) !== existing) existing = dirname(existing);
  const stat = statOf(existing);
  if (stat && !stat.isDirectory()) return `${existing} is a file, not a directory; fix state.path`;
  // In WAL mode SQLite also creates state.db-wal and state.db-shm beside the file: the directory must be
  // writable even when the file is.
  const missing = missingAccess(existing, [[constants.W_OK | constants.X_OK, 'writable']]);
  if (missing === undefined) return undefined;
  const refusal = missing === 'EROFS' ? 'is on a read-only file system' : `is not writable by user ${user}`;
  if (existing === directory) {
    return `permission denied (directory ${directory} ${refusal}); ${missing === 'EROFS' ? WRITABLE_FIX : `let ${user} write to it, or set state.path to a directory it can write to`}`;
  }
  return `directory ${directory} does not exist and cannot be created (${existing} ${refusal}); create it, writable by user ${user}, or set state.path to a directory that is`;
}

const WRITABLE_FIX =
  'set state.path to a writable directory (under systemd with ProtectSystem=strict, one that StateDirectory= or ReadWritePaths= names)';

interface CodeProblem {
  reason: string;
  retryable: boolean;
}

/** What SQLite's or the system's error code means when the file system showed nothing wrong. */
function codeProblem(code: string | undefined): CodeProblem | undefined {
  if (code === undefined) return undefined;
  if (code === 'SQLITE_NOTADB') {
    return {
      reason:
        "it is not a SQLite database (SQLITE_NOTADB); set state.path to the notifier's state file or to a new one, or move this file away",
      retryable: false,
    };
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return {
      reason: `the database is damaged (${code}); restore it from a backup, or move it away to start again from a silent baseline`,
      retryable: false,
    };
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return {
      reason: `another process kept it locked (${code}); it is in use, try again in a moment`,
      retryable: true,
    };
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return { reason: `the disk is full (${code}); free space where it lives`, retryable: true };
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return {
      reason: `input/output error (${code}); check the disk and the file system it is on`,
      retryable: true,
    };
  }
  if (
    code.startsWith('SQLITE_CANTOPEN') ||
    code.startsWith('SQLITE_READONLY') ||
    code === 'SQLITE_PERM' ||
    ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'EISDIR', 'ENAMETOOLONG'].includes(code)
  ) {
    return {
      reason: `SQLite cannot open or write it (${code}); check that state.path names a file in a directory user ${currentUser()} can write to`,
      retryable: false,
    };
  }
  return undefined;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    // Not searchable from here: the walk up names the directory that refuses.
    return undefined;
  }
}

/** The first access missing, by name, or 'EROFS' when the file system is mounted read-only. */
function missingAccess(path: string, modes: [number, string][]): string | undefined {
  for (const [mode, name] of modes) {
    try {
      accessSync(path, mode);
    } catch (error) {
      const code = codeOf(error);
      if (code === 'EROFS') return 'EROFS';
      if (code === 'EACCES' || code === 'EPERM') return name;
    }
  }
  return undefined;
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    // A uid with no passwd entry, as in some containers.
    return `uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
