// Delivery for a run that must end (`poll --once`): keeps delivering while something queued falls due
// within the window (a schedule's 5 s step, a short Retry-After), then leaves the rest queued for next time.
import { type DeliveryReport, type DrainDependencies, drainOutbox } from './drainOutbox.js';

export interface SettleDependencies extends DrainDependencies {
  /** How long the run may wait for retries, in all. */
  windowMs: number;
  sleep: (ms: number) => Promise<void>;
}

export async function deliverUntilSettled(deps: SettleDependencies): Promise<DeliveryReport[]> {
  const deadline = deps.clock() + deps.windowMs;
  const reports: DeliveryReport[] = [];
  for (;;) {
    reports.push(...(await drainOutbox(deps)));
    const next = await deps.outbox.nextDeliveryDueAt();
    if (next === undefined || next > deadline) return reports;
    await deps.sleep(Math.max(0, next - deps.clock()));
  }
}
