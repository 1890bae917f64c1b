// The base of every error that means a broken invariant, a bug in the notifier: shown as "unexpected failure,
// please report it" with the stacks, and the process exits 1.
import { EXIT_FAILURE, type ExitCode, NotifierError } from './notifierError.js';

export abstract class InternalError extends NotifierError {
  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return false;
  }
}
