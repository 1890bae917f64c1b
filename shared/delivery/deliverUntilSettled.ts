// Delivery for a run that must end (`poll --once`, `replay`): keeps delivering while something queued falls
// due within the window (a schedule's 5 s step, a short Retry-After), then leaves the rest queued for next time.
import type { DeliveryReport, OutboxDelivery } from './outboxDelivery.js';

export interface SettleDependencies {
  delivery: OutboxDelivery;
  clock: () => number;
  /** How long the run may wait for retries, in all. */
  windowMs: number;
  sleep: (ms: number) => Promise<void>;
  stop?: AbortSignal;
}

export async function deliverUntilSettled(deps: SettleDependencies): Promise<DeliveryReport[]> {
  const deadline = deps.clock() + deps.windowMs;
  const reports: DeliveryReport[] = [];
  for (;;) {
    reports.push(...(await deps.delivery.deliverDue(deps.stop)));
    const next = await deps.delivery.nextDueAt();
    if (deps.stop?.aborted || next === undefined || next > deadline) return reports;
    await deps.sleep(Math.max(0, next - deps.clock()));
  }
}
