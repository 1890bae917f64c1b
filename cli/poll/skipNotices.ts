// Which skipped cycles the runner tells of: the first one while another run holds an organization's
// lease, not every one after it. A second runner standing by on the same state file then says so once,
// at start-up, instead of once per poll interval for as long as the first one runs.
import type { PollReport } from '../../shared/poll/pollReport.js';

export class SkipNotices {
  /** Per organization skipped last time: the holder then (undefined when unknown). */
  readonly #skippedFor = new Map<string, string | undefined>();

  /** False only for a skip that repeats the organization's previous cycle: same outcome, same holder. */
  worthTelling(report: PollReport): boolean {
    const id = report.organization.id;
    if (report.outcome !== 'skipped') {
      this.#skippedFor.delete(id);
      return true;
    }
    const repeat = this.#skippedFor.has(id) && this.#skippedFor.get(id) === report.leaseHolder;
    this.#skippedFor.set(id, report.leaseHolder);
    return !repeat;
  }
}
