// Turns better-sqlite3 failures into the store's typed errors: a locked database is contention (retry later),
// and a native addon built for another Node.js is named as such, with the command that fixes it.
import { EXIT_USAGE, type ExitCode } from '../../errors/notifierError.js';
import { StateStoreError, StoreContentionError } from '../errors.js';

/**
 * better-sqlite3's native addon was compiled for another Node.js (its NODE_MODULE_VERSION differs), as after
 * switching Node.js without `npm rebuild`. Nothing opens until it is rebuilt, so retrying cannot help.
 */
export class SqliteAddonMismatchError extends StateStoreError {
  constructor(operation: string, detail: string, options?: { cause?: unknown }) {
    const [built, needed] = [...detail.matchAll(/NODE_MODULE_VERSION (\d+)/g)].map((match) => match[1]);
    const versions =
      built && needed ? ` (NODE_MODULE_VERSION ${built}; Node.js ${process.version} needs ${needed})` : '';
    super(
      operation,
      undefined,
      `better-sqlite3's native addon was built for another Node.js${versions}: ` +
        'run `npm rebuild better-sqlite3` with this Node.js, or run the Node.js it was built for',
      options,
    );
  }

  // Only a rebuild by hand fixes it. A StateStoreError all the same (what toStoreError returns and the store's
  // callers catch), so it cannot extend FixByHandError.
  override get exitCode(): ExitCode {
    return EXIT_USAGE;
  }
}

export function toStoreError(
  error: unknown,
  operation: string,
  organization: string | undefined,
): StateStoreError {
  if (error instanceof StateStoreError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_DLOPEN_FAILED' && detail.includes('NODE_MODULE_VERSION')) {
    return new SqliteAddonMismatchError(operation, detail, { cause: error });
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new StoreContentionError(operation, organization, `database is locked (${code})`, {
      cause: error,
    });
  }
  return new StateStoreError(operation, organization, detail, { cause: error });
}

/** Runs a synchronous store step, typing whatever it throws. */
export function guarded<T>(operation: string, organization: string | undefined, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw toStoreError(error, operation, organization);
  }
}
