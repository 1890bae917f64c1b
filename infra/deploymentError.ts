// A deployment the stack refuses at synth time (a context value it cannot use, a config that would not fit
// a Lambda environment, …), as opposed to a bug: app.ts prints its message alone and exits 1, so the
// operator reads one actionable line instead of a stack trace.
import { FixByHandError } from '../shared/errors/fixByHandError.js';

export class DeploymentError extends FixByHandError {
  constructor(message: string) {
    super(message);
  }
}
