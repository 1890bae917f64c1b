// The base of every error only a fix by hand cures (flags, config, secrets, a deployment): starting again as
// is fails the same way, so the process exits 2 and its one-line message says what to fix.
import { EXIT_USAGE, type ExitCode, NotifierError } from './notifierError.js';

export abstract class FixByHandError extends NotifierError {
  override get exitCode(): ExitCode {
    return EXIT_USAGE;
  }

  override get userFacing(): boolean {
    return true;
  }
}
