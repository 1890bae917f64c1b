// A sleep that a stop signal cuts short. The runner waits in two places it must not linger on shutdown:
// for the token's request budget to free up, and between retries of a failed request. Cutting those
// waits fails the request at once, so the cycle ends (committing what it has) instead of holding the
// process for up to a minute.
import { TransientError } from '../../shared/errors/transientError.js';

/** The runner is stopping: the request that waited was given up, not refused by the API. */
export class RunnerStoppingError extends TransientError {
  constructor() {
    super('not sent: the runner is stopping');
  }
}

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
