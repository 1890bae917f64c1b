// A deployment the stack refuses at synth time (a context value it cannot use, a config that would not fit
// a Lambda environment, …), as opposed to a bug: app.ts prints its message alone and exits 1, so the
// operator reads one actionable line instead of a stack trace.
import { EXIT_USAGE, type ExitCode, NotifierError } from '../shared/errors/notifierError.js';

export class DeploymentError extends NotifierError {
  constructor(message: string) {
    super(message);
  }

  override get exitCode(): ExitCode {
    return EXIT_USAGE;
  }

  override get userFacing(): boolean {
    return true;
  }
}
