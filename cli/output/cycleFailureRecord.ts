// The records a runner writes for a cycle that failed as a whole (it threw) and for a step after a cycle
// that failed on its own: one line each, in the words the poll state keeps as the last error; a bug adds
// its stack and those of its causes, for the report it asks for.
import { NotifierError } from '../../shared/errors/notifierError.js';
import { cycleFailureLine } from '../../shared/poll/cycleFailureLine.js';
import type { CycleCleanupError } from '../../shared/poll/errors.js';
import { bugReport } from '../errors.js';
import type { LogRecord } from '../logging/logger.js';

export function cycleFailureRecord(organization: { id: string; name: string }, error: unknown): LogRecord {
  const line = cycleFailureLine(organization.name, error);
  const stack = isBug(error) ? bugReport(error) : undefined;
  return {
    level: 'error',
    kind: 'failure',
    message: stack === undefined ? line : `${line}\n${stack}`,
    fields: {
      organization: organization.name,
      organizationId: organization.id,
      error: line,
      ...(stack === undefined ? {} : { stack }),
    },
  };
}

/** A step after the cycle that failed: the cycle's own outcome was told (or thrown) apart. */
export function cleanupFailureRecord(failure: CycleCleanupError): LogRecord {
  const stack = isBug(failure.cause) ? bugReport(failure) : undefined;
  return {
    level: 'error',
    kind: 'failure',
    message: stack === undefined ? failure.message : `${failure.message}\n${stack}`,
    fields: {
      organization: failure.organization,
      step: failure.step,
      error: failure.message,
      ...(stack === undefined ? {} : { stack }),
    },
  };
}

function isBug(error: unknown): boolean {
  return !(error instanceof NotifierError && error.userFacing);
}
