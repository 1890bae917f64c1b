// Requests that go out later than the budget counted them: a cycle whose pages are answered slowly, a
// budget write that took a while. The budget must count each request no earlier than it really goes out,
// or the next minute's requests reach the server while it still counts the late ones, and meet a 429;
// and it must do so without giving the room back, or another user of the token takes it mid-walk.
// Through the real simulator on loopback, on one virtual clock that its latency moves.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BudgetCounterStore,
  InMemoryBudgetCounterStore,
  type ReservationRequest,
} from '../../../shared/api/budgetCounterStore.js';
import type { RequestContext } from '../../../shared/api/errors.js';
import { RequestBudget } from '../../../shared/api/requestBudget.js';
import { RATE_WINDOW_MS } from '../../../simulator/rateLimiter.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import {
  closeTestClients,
  createTestClient,
  type FakeTime,
  fakeTime,
} from '../../support/apiClientHarness.js';

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

/** An in-memory store whose next reservation write takes `ms` (SQLite behind another process's lock, say). */
class SlowOnceStore implements BudgetCounterStore {
  readonly #inner = new InMemoryBudgetCounterStore();
  constructor(
    private readonly time: FakeTime,
    private slowMs: number,
  ) {}
  reserve(key: string, nowMs: number, request: ReservationRequest, limit: number, windowMs: number) {
    this.time.advance(this.slowMs);
    this.slowMs = 0;
    return this.#inner.reserve(key, nowMs, request, limit, windowMs);
  }
  release(key: string, countAtMs: number, count: number) {
    return this.#inner.release(key, countAtMs, count);
  }
  postpone(key: string, fromMs: number, toMs: number, count: number) {
    return this.#inner.postpone(key, fromMs, toMs, count);
  }
  remaining(key: string, nowMs: number, limit: number, windowMs: number) {
    return this.#inner.remaining(key, nowMs, limit, windowMs);
  }
  pauseUntil(key: string, untilMs: number) {
    return this.#inner.pauseUntil(key, untilMs);
  }
}

const context: RequestContext = { organization: 'Escola Norte', endpoint: 'GET /orders' };

describe('request budget when requests go out late', () => {
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

  it('counts a lone request no earlier than it reaches the server when its budget write was slow', async () => {
    const time = fakeTime();
    sim = await startSimulator({ clock: time.clock, delay: time.sleep, scenario: false, initialOrders: 5 });
    const budget = new RequestBudget({
      token: sim.token,
      store: new SlowOnceStore(time, 2_500),
      clock: time.clock,
      sleep: time.sleep,
    });
    const { client } = createTestClient(
      sim.baseUrl,
      { token: sim.token, organizationId: sim.organization.id, budget },
      time,
    );
    // The first request's budget write takes 2.5 s, longer than the 2 s it is counted after its start;
    // then 50 more at once, the 51st waiting for the window to free the first.
    for (let i = 0; i < 51; i += 1) await client.listEstablishments();
    expect(sim.requestLog.all().filter(({ status }) => status === 429)).toEqual([]);
    expect(sim.requestLog.size).toBe(51);
  });

  it('keeps a late cycle its reservation when another user of the token asks meanwhile', async () => {
    const time = fakeTime();
    const store = new InMemoryBudgetCounterStore();
    const budget = () =>
      new RequestBudget({ token: 'tok', store, clock: time.clock, sleep: time.sleep, maxWaitMs: 10_000 });
    const [other, cycle, rival] = [budget(), budget(), budget()];
    for (let i = 0; i < 30; i += 1) await other.acquire(context);
    expect(await cycle.reserve(20, 20)).toBe(20);
    // Pages answered at 1.5 s each: the fifth request goes out after the reservation counted it.
    for (let i = 0; i < 4; i += 1) {
      await cycle.acquire(context);
      time.advance(1_500);
    }
    // Another organization's cycle on the token asks for room while this one counts its rest later.
    const [fifth, rivalGot] = await Promise.all([cycle.acquire(context), rival.reserve(16, 16, 0)]);
    expect(fifth).toBeUndefined();
    expect(rivalGot).toBe(0);
    expect(cycle.reserved).toBe(15);
  });
});
