// The base of every error that running again may cure (the API, the network, a busy store, AWS): the process
// exits 1 and its one-line message names what failed.
import { EXIT_FAILURE, type ExitCode, NotifierError } from './notifierError.js';

export abstract class TransientError extends NotifierError {
  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return true;
  }
}
