// A sleep that a stop signal cuts short. The runner waits in two places it must not linger on shutdown:
// for the token's request budget to free up, and between retries of a failed request. Cutting those
// waits fails the request at once, so the cycle ends (recording nothing of its own, nor a failure) instead
// of holding the process for up to a minute.
import { RunnerStoppingError } from '../../shared/time/runnerStoppingError.js';

export { RunnerStoppingError };

export function stoppableSleep(stop: AbortSignal): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise<void>((resolve, reject) => {
      if (stop.aborted) return reject(new RunnerStoppingError());
      const onAbort = () => {
        clearTimeout(timer);
        reject(new RunnerStoppingError());
      };
      const timer = setTimeout(() => {
        stop.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      stop.addEventListener('abort', onAbort, { once: true });
    });
}
