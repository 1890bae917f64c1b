// The one line of a cycle that failed as a whole (it threw): the poll state's last error, so `status`,
// `/healthz` and the log say what failed in that cycle, worded the same by every runtime.
import { NotifierError } from '../errors/notifierError.js';

/**
 * `<organization>: cycle failed: <what>`; a bug (an error that is not one actionable line) says "please
 * report it", its stack being the log's to show.
 */
export function cycleFailureLine(organization: string, error: unknown): string {
  const own =
    error instanceof NotifierError
      ? error.message
      : error instanceof Error
        ? `${error.name}: ${error.message}`
        : String(error);
  // The organization is named once: most of our errors name it first already.
  const what = own.startsWith(`${organization}: `) ? own.slice(organization.length + 2) : own;
  if (error instanceof NotifierError && error.userFacing) return `${organization}: cycle failed: ${what}`;
  return `${organization}: cycle failed: unexpected failure, please report it: ${what}`;
}
