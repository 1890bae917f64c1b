// A PollReport as pollOrganization returns it, for tests of what the CLI makes of one.
import type { PollReport } from '../../../shared/poll/pollReport.js';
import { ORGANIZATION } from '../../support/detectFixtures.js';

export function pollReport(overrides: Partial<PollReport> = {}): PollReport {
  return {
    organization: { id: ORGANIZATION.id, name: ORGANIZATION.name },
    outcome: 'polled',
    ok: true,
    requests: 4,
    requestsFor: { detect: 4, resolve: 0, sweep: 0 },
    vanished: [],
    nextPollAt: 0,
    budgetRemaining: 46,
    listings: [],
    deferred: [],
    ordersSeen: 63,
    events: [],
    sourceTimes: {},
    conflicts: 0,
    failures: [],
    problems: [],
    ...overrides,
  };
}
