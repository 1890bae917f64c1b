// One poll cycle of one organization in the local runner: prune what SQLite has no TTL for, then the
// shared use case. Reporting is the caller's: the poll command prints, the demo narrates.
import { apiTargetOf, describeApiFailure } from '../../shared/config/explainApiFailure.js';
import type { CycleCleanupError } from '../../shared/poll/errors.js';
import { organizationsOnToken } from '../../shared/poll/organizationsOnToken.js';
import { pollOrganization } from '../../shared/poll/pollOrganization.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import type { LocalRuntime, OrganizationRuntime } from './localRuntime.js';

export async function runPollCycle(
  runtime: LocalRuntime,
  { organization, client }: OrganizationRuntime,
  onCleanupFailure: (failure: CycleCleanupError) => void,
): Promise<PollReport> {
  await runtime.pruneIfDue();
  return pollOrganization(organization, {
    api: client,
    store: runtime.store,
    clock: Date.now,
    runId: runtime.runId,
    lease: runtime.lease,
    baseUrl: runtime.config.api.baseUrl,
    // Each client's budget is keyed by its token's identity: the one rule counts them (AWS counts the same).
    organizationsOnToken: organizationsOnToken(
      runtime.organizations.map((entry) => entry.client.budget.key),
      client.budget.key,
    ),
    // The one failure line of every command: an unreachable API or a rejected token says what to fix.
    describeFailure: (error) => describeApiFailure(error, apiTargetOf(runtime.config, organization.id)),
    onCleanupFailure,
  });
}
