// Typed state store failures: which organization, which operation, and the storage error behind it.
// Callers branch on the class (retryable or not), never on a storage engine's error names.
import { EXIT_FAILURE, EXIT_USAGE, type ExitCode, NotifierError } from '../errors/notifierError.js';

export class StateStoreError extends NotifierError {
  /** The organization the operation was for; undefined for store-wide work such as the request budget. */
  readonly organization: string | undefined;
  /** The store method that failed, e.g. `commitChange`. */
  readonly operation: string;
  /** Whether repeating the operation later may succeed. */
  readonly retryable: boolean = false;

  constructor(
    operation: string,
    organization: string | undefined,
    detail: string,
    options?: { cause?: unknown },
  ) {
    const scope = organization === undefined ? '' : ` for organization ${organization}`;
    super(`state store ${operation} failed${scope}: ${detail}`, options);
    this.operation = operation;
    this.organization = organization;
  }

  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return true;
  }
}

/**
 * The local state file could not be opened. The message names the file, the cause and the fix in one
 * line; `retryable` is false when starting again cannot help (permissions, not a database, a newer
 * schema), so that a process manager stops restarting.
 */
export class StateFileError extends StateStoreError {
  readonly path: string;
  override readonly retryable: boolean;

  constructor(path: string, reason: string, options: { retryable: boolean; cause?: unknown }) {
    super('open', undefined, reason, { cause: options.cause });
    this.message = `cannot open state file ${path}: ${reason}`;
    this.path = path;
    this.retryable = options.retryable;
  }

  /** Exit 2 when starting again cannot open it, so systemd's RestartPreventExitStatus=2 stops restarting. */
  override get exitCode(): ExitCode {
    return this.retryable ? EXIT_FAILURE : EXIT_USAGE;
  }
}

/** The database refused for capacity reasons even after the client's own retries. */
export class StoreThrottledError extends StateStoreError {
  override readonly retryable = true;
}

/** Concurrent writers kept colliding (a transaction conflict, a busy database, a contended counter). */
export class StoreContentionError extends StateStoreError {
  override readonly retryable = true;
}

/**
 * The state file was written by a newer meal-notifier, whose schema this one cannot read: refused rather
 * than misread, and not retryable, since only another program version or another file fixes it.
 */
export class StateFileTooNewError extends StateFileError {
  constructor(
    path: string,
    /** The schema version recorded in the file. */
    readonly fileVersion: number,
    /** The newest schema version this program reads. */
    readonly programVersion: number,
  ) {
    super(
      path,
      `a newer meal-notifier wrote it (schema version ${fileVersion}; this one reads up to ${programVersion}); run that version or a later one, or point state.path at another file`,
      { retryable: false },
    );
  }
}
