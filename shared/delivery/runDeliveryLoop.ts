// Delivery for the long-running runner: delivers whatever falls due, until the stop signal. An attempt in
// flight when it comes is finished and recorded before the loop ends.
import { setTimeout as delay } from 'node:timers/promises';
import { type DrainDependencies, drainOutbox } from './drainOutbox.js';

/** New events are queued by poll cycles at any moment; a second is the longest they wait to go out. */
const MAX_IDLE_MS = 1_000;

export async function runDeliveryLoop(deps: DrainDependencies, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    await drainOutbox(deps);
    const next = await deps.outbox.nextDeliveryDueAt();
    const wait = next === undefined ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, Math.max(50, next - deps.clock()));
    await delay(wait, undefined, { signal: stop }).catch(() => {});
  }
}
