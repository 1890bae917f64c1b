// One poll cycle of one organization in the local runner: the shared use case, then its events and its
// status reported (events as JSON lines on stdout until delivery lands, status and failures on stderr).
import { eventForSubscriber } from '../../shared/events/orderSummary.js';
import { type PollReport, pollOrganization } from '../../shared/poll/pollOrganization.js';
import { formatPollReportLine } from '../output/pollReportLine.js';
import type { LocalRuntime, OrganizationRuntime } from './localRuntime.js';

export interface PollOutput {
  event: (line: string) => void;
  status: (line: string) => void;
}

export async function runPollCycle(
  runtime: LocalRuntime,
  { organization, client }: OrganizationRuntime,
  output: PollOutput,
): Promise<PollReport> {
  await runtime.pruneIfDue();
  const report = await pollOrganization(organization, {
    api: client,
    store: runtime.store,
    clock: Date.now,
    runId: runtime.runId,
    baseUrl: runtime.config.api.baseUrl,
  });
  // stdout is nobody's opted-in subscriber: contact details stay out.
  for (const event of report.events) output.event(JSON.stringify(eventForSubscriber(event, false)));
  output.status(formatPollReportLine(report, runtime.config.api.requestsPerMinute));
  for (const failure of report.failures) output.status(`  ${failure}`);
  return report;
}
