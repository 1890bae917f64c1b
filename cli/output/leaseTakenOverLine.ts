// The line a runner writes when it polls an organization in place of a run that ended holding its lease
// (killed mid-cycle, say) instead of waiting for that lease to run out: the end of that run is news.
import { describeLeaseOwner } from '../../shared/poll/localRunId.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import type { LogRecord } from '../logging/logger.js';

/** Undefined for a cycle that took no lease over. */
export function leaseTakenOverRecord(report: PollReport): LogRecord | undefined {
  const previous = report.leaseTakenOverFrom;
  if (previous === undefined) return undefined;
  const { name, id } = report.organization;
  return {
    level: 'warn',
    kind: 'lifecycle',
    message: `${name}: the run that held its lease (${describeLeaseOwner(previous)}) is no longer running; polling in its place`,
    fields: { event: 'lease-taken-over', organization: name, organizationId: id, previousOwner: previous },
  };
}
