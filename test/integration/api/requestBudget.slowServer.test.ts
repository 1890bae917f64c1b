// A cycle whose pages are answered slowly sends its last requests long after its reservation counted them;
// the budget must count each request no earlier than it really goes out, or the next minute's requests
// reach the server while it still counts the slow ones, and meet a 429. Through the real simulator on
// loopback, on one virtual clock that its latency moves.
import { afterEach, describe, expect, it } from 'vitest';
import { RATE_WINDOW_MS } from '../../../simulator/rateLimiter.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { closeTestClients, createTestClient, fakeTime } from '../../support/apiClientHarness.js';

let sim: RunningSimulator | undefined;

afterEach(async () => {
  await closeTestClients();
  await sim?.close();
  sim = undefined;
});

/** The most requests the server counted in any of its windows. */
function mostInOneWindow(arrivals: readonly number[]): number {
  return Math.max(
    0,
    ...arrivals.map((end) => arrivals.filter((at) => at > end - RATE_WINDOW_MS && at <= end).length),
  );
}

describe('request budget against a slow server', () => {
  it('never lets a cycle answered slowly overfill the next minute at the server', async () => {
    const time = fakeTime();
    const T0 = time.clock();
    sim = await startSimulator({
      clock: time.clock,
      delay: time.sleep,
      scenario: false,
      initialOrders: 5,
      faults: { latencyMs: 1_500 },
    });
    const { client } = createTestClient(
      sim.baseUrl,
      { token: sim.token, organizationId: sim.organization.id },
      time,
    );

    // A cycle of 20 requests, each answered after 1.5 s: the last goes out ~28.5 s after it reserved.
    expect(await client.budget.reserve(20, 20)).toBe(20);
    for (let i = 0; i < 20; i += 1) await client.listEstablishments();
    await client.budget.release();

    // A minute after the reservation, a quick burst of everything the budget grants.
    sim.faults.set({ latencyMs: 0 });
    time.advance(T0 + 66_000 - time.clock());
    for (let i = 0; i < 45; i += 1) await client.listEstablishments();

    const log = sim.requestLog.all();
    expect(log.filter(({ status }) => status === 429)).toEqual([]);
    expect(log).toHaveLength(65);
    expect(mostInOneWindow(log.map(({ at }) => at))).toBeLessThanOrEqual(sim.requestsPerMinute);
  });
});
