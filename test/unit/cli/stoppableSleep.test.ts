import { describe, expect, it } from 'vitest';
import { RunnerStoppingError, stoppableSleep } from '../../../cli/runtime/stoppableSleep.js';

describe('stoppableSleep', () => {
  it('sleeps as asked while the runner runs', async () => {
    await expect(stoppableSleep(new AbortController().signal)(1)).resolves.toBeUndefined();
  });

  it('gives up a wait at once when the stop comes during it', async () => {
    const stop = new AbortController();
    // A minute's wait for request budget, cut short.
    const waiting = stoppableSleep(stop.signal)(60_000);
    stop.abort();
    await expect(waiting).rejects.toBeInstanceOf(RunnerStoppingError);
  });

  it('does not start a wait once stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(stoppableSleep(stop.signal)(60_000)).rejects.toThrow('not sent: the runner is stopping');
  });
});
