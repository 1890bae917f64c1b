// The long-running local runner: each organization on its own interval (with jitter, so organizations
// sharing a token do not fire together), until the stop signal; an in-flight cycle always finishes.
import { setTimeout as delay } from 'node:timers/promises';
import type { LocalRuntime } from './localRuntime.js';
import { type PollOutput, runPollCycle } from './pollCycle.js';

/** ±10 % of the interval. */
const JITTER = 0.1;

export async function runPollScheduler(
  runtime: LocalRuntime,
  output: PollOutput,
  stop: AbortSignal,
  random: () => number = Math.random,
): Promise<void> {
  await Promise.all(
    runtime.organizations.map(async (entry) => {
      const intervalMs = entry.organization.pollIntervalSeconds * 1000;
      while (!stop.aborted) {
        try {
          await runPollCycle(runtime, entry, output);
        } catch (error) {
          // A failing store or a bug must not stop the other organizations; the next cycle tries again.
          output.status(`${entry.organization.name}: cycle failed: ${(error as Error).message}`);
        }
        const wait = Math.round(intervalMs * (1 - JITTER + 2 * JITTER * random()));
        await delay(wait, undefined, { signal: stop }).catch(() => {});
      }
    }),
  );
}
