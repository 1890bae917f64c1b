// What one run of the long-running runner did, per organization, for the summary it prints on exit.
import type { DeliveryReport } from '../../shared/delivery/outboxDelivery.js';
import type { PollReport } from '../../shared/poll/pollOrganization.js';

export interface OrganizationTally {
  id: string;
  name: string;
  cycles: number;
  /** Cycles that did not poll every planned listing (a failure, or budget exhausted). */
  failedCycles: number;
  events: number;
  /** Problems met in listings fetched without error: skipped records, inconsistent walks. */
  listingProblems: number;
  /** Deliveries that succeeded during this run. */
  delivered: number;
  /** Attempts that failed during this run (each retried later, or given up on). */
  failedAttempts: number;
}

export class RunTally {
  readonly startedAt: number;
  readonly #byId = new Map<string, OrganizationTally>();

  constructor(organizations: ReadonlyArray<{ id: string; name: string }>, startedAt: number) {
    this.startedAt = startedAt;
    for (const { id, name } of organizations) {
      this.#byId.set(id, {
        id,
        name,
        cycles: 0,
        failedCycles: 0,
        events: 0,
        listingProblems: 0,
        delivered: 0,
        failedAttempts: 0,
      });
    }
  }

  recordCycle(report: PollReport): void {
    const tally = this.#byId.get(report.organization.id);
    if (!tally) return;
    tally.cycles += 1;
    if (!report.ok) tally.failedCycles += 1;
    tally.events += report.events.length;
    tally.listingProblems += report.problems.length;
  }

  /** A cycle that threw before it could report. */
  recordCycleError(organizationId: string): void {
    const tally = this.#byId.get(organizationId);
    if (!tally) return;
    tally.cycles += 1;
    tally.failedCycles += 1;
  }

  /** `organizationId` is undefined for an event already pruned from the log: counted nowhere. */
  recordDelivery(organizationId: string | undefined, report: DeliveryReport): void {
    const tally = organizationId === undefined ? undefined : this.#byId.get(organizationId);
    if (!tally) return;
    if (report.state === 'delivered') tally.delivered += 1;
    else tally.failedAttempts += 1;
  }

  organizations(): OrganizationTally[] {
    return [...this.#byId.values()].map((tally) => ({ ...tally }));
  }
}
