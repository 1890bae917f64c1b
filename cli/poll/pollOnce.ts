// `poll --once`: one cycle for every organization, then delivery while retries fall due soon; the rest
// stays queued for the next run. Reports whether every organization was polled.
import { deliverUntilSettled } from '../../shared/delivery/deliverUntilSettled.js';
import { OutboxDelivery } from '../../shared/delivery/outboxDelivery.js';
import { sleep } from '../../shared/time/sleep.js';
import { claimDelivery } from '../runtime/deliveryLease.js';
import type { LocalRuntime } from '../runtime/localRuntime.js';
import { runPollCycle } from '../runtime/pollCycle.js';
import type { PollReporter } from './pollReporter.js';

/** How long `--once` waits for retries that fall due soon (the schedule's 5 s step, a short Retry-After). */
const ONCE_DELIVERY_WINDOW_MS = 30_000;

/** True when every organization was polled without failure. */
export async function pollOnce(runtime: LocalRuntime, reporter: PollReporter): Promise<boolean> {
  let ok = true;
  for (const entry of runtime.organizations) {
    const report = await runPollCycle(runtime, entry, (failure) => reporter.cleanupFailure(failure));
    await reporter.cycle(report);
    ok &&= report.ok;
  }
  const claim = await claimDelivery(runtime);
  if (!claim.held) {
    reporter.deliveryStandby(claim.holder);
    return ok;
  }
  await deliverUntilSettled({
    delivery: new OutboxDelivery({
      outbox: runtime.outbox,
      senders: runtime.senders,
      clock: Date.now,
      onDelivery: (report) => reporter.delivery(report),
      onError: (error) => reporter.deliveryError(error),
      catchUps: runtime.catchUps,
      onCatchUp: (report) => reporter.catchUp(report),
    }),
    clock: Date.now,
    windowMs: ONCE_DELIVERY_WINDOW_MS,
    sleep,
  });
  return ok;
}
