// Turns better-sqlite3 failures into the store's typed errors: a locked database is contention (retry later).
import { StateStoreError, StoreContentionError } from '../errors.js';

export function toStoreError(
  error: unknown,
  operation: string,
  organization: string | undefined,
): StateStoreError {
  if (error instanceof StateStoreError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
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
