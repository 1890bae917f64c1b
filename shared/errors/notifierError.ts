// The root of every error the notifier throws on purpose. Each class says, once, by the base it extends, how
// a process ends on it (its exit code) and whether its message alone is what a person needs, so no caller
// keeps a list of classes, and a new class cannot fall through to "unexpected failure" by being left off one.

/** Something went wrong that running again may cure (a network failure, a busy state file, an API error). */
export const EXIT_FAILURE = 1;
/** Something to fix first (input, config, the state file's place): starting again as is cannot help. */
export const EXIT_USAGE = 2;

export type ExitCode = typeof EXIT_FAILURE | typeof EXIT_USAGE;

/**
 * `exitCode` and `userFacing` are getters: they live on the prototype, so they are not copied into every
 * structured log line that spreads an error's own fields (Powertools does), and a class can derive them from
 * its state (a state file is exit 2 only when retrying cannot help). Only the three bases write them, one
 * for each combination there is: `FixByHandError`, `TransientError` and `InternalError`; every error class
 * extends one of those.
 */
export abstract class NotifierError extends Error {
  /** How the CLI exits on it: EXIT_USAGE when only a fix by hand helps, else EXIT_FAILURE. */
  abstract get exitCode(): ExitCode;

  /**
   * True: the message is one actionable line naming the thing at fault, printed alone, without a stack.
   * False: an internal invariant broke, a bug; shown as "unexpected failure, please report it" with the stack.
   */
  abstract get userFacing(): boolean;

  constructor(message: string, options?: { cause?: unknown }) {
    // No `cause` key at all when there is none, so an error without one does not show `cause: undefined`.
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    // The concrete class's name, for every subclass at once. The bundles keep class names (esbuild
    // keepNames), so logs and a Lambda's errorType say `ConfigError`, never a minified name.
    this.name = new.target.name;
  }
}
