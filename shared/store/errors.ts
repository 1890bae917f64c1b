// Typed state store failures: which organization, which operation, and the storage error behind it.
// Callers branch on the class (retryable or not), never on a storage engine's error names.

import type * as z from 'zod';
import { EXIT_FAILURE, EXIT_USAGE, type ExitCode } from '../errors/notifierError.js';
import { TransientError } from '../errors/transientError.js';

/**
 * Every failure of the store is one of these, so callers catch one class; most are transient. The few of
 * another kind (a state file it cannot open, a value the notifier built wrong, an addon built for another
 * Node.js) cannot extend another base as well, so each overrides the one getter that differs.
 */
export class StateStoreError extends TransientError {
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

  /**
   * Exit 2 when starting again cannot open it, so systemd's RestartPreventExitStatus=2 stops restarting;
   * exit 1 when it may (a locked file, a full disk). The one error whose exit code depends on its state.
   */
  override get exitCode(): ExitCode {
    return this.retryable ? EXIT_FAILURE : EXIT_USAGE;
  }
}

/**
 * What the store was handed to write (or a query) does not fit its schema: refused before anything is
 * written. Not retryable: the caller built a wrong value. `cause` is the ZodError.
 */
export class StoreInputError extends StateStoreError {
  /** The first field at fault, as a path (`listingSizes.pending`); empty when the value itself is. */
  readonly field: string;

  constructor(operation: string, organization: string | undefined, what: string, error: z.ZodError) {
    const field = fieldOf(error);
    super(operation, organization, `invalid ${what}: ${issueLine(error, field)}`, { cause: error });
    this.field = field;
  }

  // The notifier built the value: a bug to report, not something the operator can fix. A StateStoreError
  // all the same (the store's callers catch that class), so it cannot extend InternalError.
  override get userFacing(): boolean {
    return false;
  }
}

/**
 * A stored row or item no longer reads as the schema it was written from: refused rather than misread.
 * Not retryable: reading it again gives the same. `cause` is the ZodError (or the JSON syntax error).
 */
export class MalformedRecordError extends StateStoreError {
  /** The record at fault, e.g. `snapshot of order <uuid>`, `poll state`, `event <id>`. */
  readonly record: string;
  /** The first field at fault, as a path; undefined when the record is not even JSON. */
  readonly field: string | undefined;

  constructor(
    operation: string,
    organization: string | undefined,
    record: string,
    error: z.ZodError | SyntaxError,
  ) {
    const field = error instanceof SyntaxError ? undefined : fieldOf(error);
    const detail = field === undefined ? 'not JSON' : issueLine(error as z.ZodError, field);
    super(operation, organization, `malformed ${record}: ${detail}`, { cause: error });
    this.record = record;
    this.field = field;
  }
}

function fieldOf(error: z.ZodError): string {
  return (error.issues[0]?.path ?? []).map(String).join('.');
}

/** The first issue on one line, the field first, and how many more there are. */
function issueLine(error: z.ZodError, field: string): string {
  const first = error.issues[0]?.message ?? 'does not fit its schema';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${field === '' ? '' : `field ${field}: `}${first}${more}`;
}

/**
 * A fenced write (LeaseFence) refused: the run's lease on the organization ran out and another run took
 * it, or it was given back. Nothing of the write was made; the run that holds the lease now owns the
 * organization's state. Not retryable: only the next cycle's claim can give the lease back to this run.
 */
export class LeaseLostError extends StateStoreError {
  /** The run whose lease was lost. */
  readonly owner: string;
  /** Who holds the lease now, when anyone does. */
  readonly holder: string | undefined;

  constructor(operation: string, organization: string, owner: string, holder: string | undefined) {
    super(
      operation,
      organization,
      `lease lost: ${holder === undefined ? 'nobody' : holder} holds it now, not ${owner}; nothing was written`,
    );
    this.owner = owner;
    this.holder = holder;
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
