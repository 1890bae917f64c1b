// The failure of a wait a stop signal cut short (cli/runtime/stoppableSleep.ts): the request budget's wait
// or a retry's backoff, handed to the core as its sleep. Known to the core, so that a cycle the runner
// stopped is not recorded as a failed one.
import { TransientError } from '../errors/transientError.js';

/** The runner is stopping: the request that waited was given up, not refused by the API. */
export class RunnerStoppingError extends TransientError {
  constructor() {
    super('not sent: the runner is stopping');
  }
}
