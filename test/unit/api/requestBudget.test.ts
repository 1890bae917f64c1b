import { describe, expect, it } from 'vitest';
import {
  type BudgetCounterStore,
  type BudgetReservation,
  InMemoryBudgetCounterStore,
  type ReservationRequest,
} from '../../../shared/api/budgetCounterStore.js';
import { RequestBudgetExhaustedError, type RequestContext } from '../../../shared/api/errors.js';
import {
  RequestBudget,
  type RequestBudgetOptions,
  reservationHoldMs,
} from '../../../shared/api/requestBudget.js';
import { type FakeTime, fakeTime, rejectionOf, TEST_TOKEN } from '../../support/apiClientHarness.js';

const context: RequestContext = { organization: 'Escola Norte', endpoint: 'GET /orders' };

function budgetWith(options: Partial<RequestBudgetOptions> = {}, time = fakeTime()) {
  return {
    budget: new RequestBudget({ token: TEST_TOKEN, clock: time.clock, sleep: time.sleep, ...options }),
    time,
  };
}

async function acquireTimes(budget: RequestBudget, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) await budget.acquire(context);
}

/** Records every call and answers from scripted reservations (granting by default). */
class RecordingStore implements BudgetCounterStore {
  readonly calls: Array<{ method: string; args: unknown[] }> = [];
  constructor(private readonly reservations: BudgetReservation[] = []) {}

  async reserve(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<BudgetReservation> {
    this.calls.push({ method: 'reserve', args: [key, nowMs, request, limit, windowMs] });
    return this.reservations.shift() ?? { granted: request.atMost };
  }
  async release(key: string, countAtMs: number, count: number): Promise<void> {
    this.calls.push({ method: 'release', args: [key, countAtMs, count] });
  }
  async postpone(key: string, fromMs: number, toMs: number, count: number): Promise<number> {
    this.calls.push({ method: 'postpone', args: [key, fromMs, toMs, count] });
    return count;
  }
  async remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    this.calls.push({ method: 'remaining', args: [key, nowMs, limit, windowMs] });
    return 17;
  }
  async pauseUntil(key: string, untilMs: number): Promise<void> {
    this.calls.push({ method: 'pauseUntil', args: [key, untilMs] });
  }
}

/** A RecordingStore whose reservations each take `writeMs` of the test's clock. */
function reservingIn(time: FakeTime, writeMs: number): RecordingStore {
  const store = new RecordingStore();
  const write = store.reserve.bind(store);
  store.reserve = async (...args) => {
    time.advance(writeMs);
    return write(...args);
  };
  return store;
}

describe('RequestBudget', () => {
  it('allows itself the whole 50 requests per minute by default', async () => {
    const { budget, time } = budgetWith({ maxWaitMs: 0 });
    expect(budget.requestsPerMinute).toBe(50);
    expect(budget.usablePerMinute).toBe(50);
    await acquireTimes(budget, 50);
    expect(time.sleeps).toEqual([]);
    expect(await budget.remaining()).toBe(0);
    await expect(budget.acquire(context)).rejects.toBeInstanceOf(RequestBudgetExhaustedError);
  });

  it('takes a configured number of requests per minute', async () => {
    const { budget, time } = budgetWith({ requestsPerMinute: 3 });
    await acquireTimes(budget, 3);
    expect(time.sleeps).toEqual([]);
    expect(await budget.remaining()).toBe(0);
  });

  it('waits until the window frees a request when the budget is used up', async () => {
    const { budget, time } = budgetWith({ requestsPerMinute: 2 });
    await budget.acquire(context);
    time.advance(15_000);
    await budget.acquire(context);
    time.advance(5_000);
    await budget.acquire(context);
    // The first request (sent at 0 s, counted at 2.25 s) leaves the window at 62.25 s; it is now 20 s.
    expect(time.sleeps).toEqual([42_250]);
  });

  it('throws RequestBudgetExhaustedError when the wait would exceed maxWaitMs', async () => {
    const { budget, time } = budgetWith({ requestsPerMinute: 1, maxWaitMs: 59_999 });
    await budget.acquire(context);
    const error = await rejectionOf(budget.acquire(context));
    expect(error).toBeInstanceOf(RequestBudgetExhaustedError);
    expect((error as RequestBudgetExhaustedError).retryAtMs).toBe(time.clock() + 62_250);
    expect(error.message).toContain('Escola Norte');
    expect(error.message).toContain('GET /orders');
    expect(error.message).not.toContain(TEST_TOKEN);
    expect(time.sleeps).toEqual([]);
  });

  it('waits when the wait is exactly maxWaitMs', async () => {
    const { budget, time } = budgetWith({ requestsPerMinute: 1, maxWaitMs: 62_250 });
    await acquireTimes(budget, 2);
    expect(time.sleeps).toEqual([62_250]);
  });

  it('reports how much later than its reservation a cycle of n requests counts them', () => {
    // 2 s for the last to reach the server, after 250 ms a request, at most 15 s of them.
    expect(reservationHoldMs(0)).toBe(2_000);
    expect(reservationHoldMs(1)).toBe(2_250);
    expect(reservationHoldMs(9)).toBe(4_250);
    expect(reservationHoldMs(60)).toBe(17_000);
    expect(reservationHoldMs(61)).toBe(17_000);
    expect(reservationHoldMs(1_000)).toBe(17_000);
    const { budget } = budgetWith();
    expect(budget.holdMsFor(12)).toBe(reservationHoldMs(12));
  });

  it('uses the injected counter store, under a key, limit and one-minute window', async () => {
    const store = new RecordingStore();
    const { budget, time } = budgetWith({ store, requestsPerMinute: 7 });
    await budget.acquire(context);
    expect(await budget.remaining()).toBe(17);
    await budget.pauseUntil(time.clock() + 1_000);
    expect(store.calls).toEqual([
      {
        method: 'reserve',
        args: [
          budget.key,
          time.clock(),
          { atLeast: 1, atMost: 1, countAtMs: time.clock() + 2_250 },
          7,
          60_000,
        ],
      },
      { method: 'remaining', args: [budget.key, time.clock(), 7, 60_000] },
      { method: 'pauseUntil', args: [budget.key, time.clock() + 1_000] },
    ]);
  });

  it('passes the whole limit to the store, each request counted once it can have reached the server', async () => {
    const store = new RecordingStore();
    const { budget, time } = budgetWith({ store, requestsPerMinute: 20 });
    expect(budget.usablePerMinute).toBe(20);
    await budget.acquire(context);
    await budget.reserve(1, 2);
    // A request alone, a reservation of one: 2 s after it is expected to go out, 250 ms from now; a
    // reservation of two 2 s after the second is expected to.
    expect(store.calls).toEqual([
      {
        method: 'reserve',
        args: [
          budget.key,
          time.clock(),
          { atLeast: 1, atMost: 1, countAtMs: time.clock() + 2_250 },
          20,
          60_000,
        ],
      },
      {
        method: 'reserve',
        args: [
          budget.key,
          time.clock(),
          { atLeast: 1, atMost: 2, countAtMs: time.clock() + 2_500 },
          20,
          60_000,
        ],
      },
    ]);
  });

  it('sleeps until the retry time the store gives, then asks again', async () => {
    const time = fakeTime();
    const store = new RecordingStore([{ granted: 0, retryAtMs: time.clock() + 2_500 }]);
    const { budget } = budgetWith({ store }, time);
    await budget.acquire(context);
    expect(time.sleeps).toEqual([2_500]);
    expect(store.calls.map((call) => call.method)).toEqual(['reserve', 'reserve']);
  });

  it('shares the limit between budgets of the same token on one store', async () => {
    const store = new InMemoryBudgetCounterStore();
    const time = fakeTime();
    const first = budgetWith({ store, requestsPerMinute: 3, maxWaitMs: 0 }, time).budget;
    const second = budgetWith({ store, requestsPerMinute: 3, maxWaitMs: 0 }, time).budget;
    await acquireTimes(first, 2);
    await second.acquire(context);
    expect(await first.remaining()).toBe(0);
    await expect(second.acquire(context)).rejects.toBeInstanceOf(RequestBudgetExhaustedError);
    await expect(first.acquire(context)).rejects.toBeInstanceOf(RequestBudgetExhaustedError);
  });

  it('keeps budgets of different tokens apart on one store', async () => {
    const store = new InMemoryBudgetCounterStore();
    const time = fakeTime();
    const first = budgetWith({ store, requestsPerMinute: 2, maxWaitMs: 0 }, time).budget;
    const other = budgetWith(
      { store, token: 'another-token', requestsPerMinute: 2, maxWaitMs: 0 },
      time,
    ).budget;
    await acquireTimes(first, 2);
    await acquireTimes(other, 2);
    expect(time.sleeps).toEqual([]);
    expect(first.key).not.toBe(other.key);
  });

  it('does not share a limit between budgets with their own default stores', async () => {
    const time = fakeTime();
    const first = budgetWith({ requestsPerMinute: 1, maxWaitMs: 0 }, time).budget;
    const second = budgetWith({ requestsPerMinute: 1, maxWaitMs: 0 }, time).budget;
    await first.acquire(context);
    await second.acquire(context);
    expect(time.sleeps).toEqual([]);
  });

  it('derives a stable key from the token without containing it', () => {
    const { budget } = budgetWith();
    expect(budget.key).not.toContain(TEST_TOKEN);
    expect(budget.key).not.toContain(TEST_TOKEN.slice(0, 8));
    expect(budget.key).toBe(budgetWith().budget.key);
    expect(budget.key).toMatch(/^token#[0-9a-f]{32}$/);
  });

  it('grants nothing while paused and waits for the pause to end', async () => {
    const { budget, time } = budgetWith();
    await budget.pauseUntil(time.clock() + 30_000);
    expect(await budget.remaining()).toBe(0);
    await budget.acquire(context);
    expect(time.sleeps).toEqual([30_000]);
    expect(await budget.remaining()).toBe(49);
  });

  it('refuses at once when a pause outlasts maxWaitMs', async () => {
    const { budget, time } = budgetWith({ maxWaitMs: 10_000 });
    await budget.pauseUntil(time.clock() + 30_000);
    await expect(budget.acquire(context)).rejects.toBeInstanceOf(RequestBudgetExhaustedError);
    expect(time.sleeps).toEqual([]);
  });

  describe('reservations', () => {
    it('reserves up to atMost in one store call, counted when the requests will have been sent', async () => {
      const store = new RecordingStore();
      const { budget, time } = budgetWith({ store, requestsPerMinute: 7 });
      expect(await budget.reserve(2, 10)).toBe(10);
      expect(budget.reserved).toBe(10);
      // 2 s after the last is expected to go out, at 250 ms a request, at most 15 s ahead.
      expect(store.calls).toEqual([
        {
          method: 'reserve',
          args: [
            budget.key,
            time.clock(),
            { atLeast: 2, atMost: 10, countAtMs: time.clock() + 4_500 },
            7,
            60_000,
          ],
        },
      ]);
    });

    it('counts a large reservation at most 15 s and the arrival allowance ahead', async () => {
      const store = new RecordingStore();
      const { budget, time } = budgetWith({ store, requestsPerMinute: 100 });
      // 80 × 250 ms would be 20 s.
      await budget.reserve(1, 80);
      expect(store.calls[0]?.args[2]).toEqual({ atLeast: 1, atMost: 80, countAtMs: time.clock() + 17_000 });
    });

    it('keeps what it holds while it waits for more, so another user of the token cannot take it', async () => {
      const time = fakeTime();
      const store = new InMemoryBudgetCounterStore();
      const budget = (sleep = time.sleep) =>
        new RequestBudget({ token: TEST_TOKEN, store, clock: time.clock, sleep, maxWaitMs: 10_000 });
      const other = budget();
      const rival = budget();
      // A rival that writes first whenever the window frees (another organization's cycle on the token).
      const cycle = budget(async (ms) => {
        time.advance(ms);
        await rival.reserve(1, 50, 0);
      });
      await acquireTimes(other, 40);
      time.advance(20_000);
      expect(await cycle.reserve(10, 10)).toBe(10);
      // Mid-walk the listing needs 5 more pages: they wait for the window (the 40 leave it at 62.25 s, within
      // the 10 s wait), the rival takes what frees, and the 10 held (counted at 24.5 s) stay the cycle's.
      time.advance(35_000);
      expect(await cycle.reserve(5, 5)).toBe(0);
      expect(rival.reserved).toBe(40);
      expect(cycle.reserved).toBe(10);
    });

    it('keeps what it had reserved when more does not fit in time', async () => {
      const store = new InMemoryBudgetCounterStore();
      const time = fakeTime();
      const first = budgetWith({ store, requestsPerMinute: 5 }, time).budget;
      const second = budgetWith({ store, requestsPerMinute: 5 }, time).budget;
      expect(await first.reserve(1, 3)).toBe(3);
      time.advance(10_000);
      await acquireTimes(second, 2);
      time.advance(10_000);
      // One more would fit only at 62.75 s, when the three held leave the window: past the wait.
      expect(await first.reserve(1, 1, 40_000)).toBe(0);
      expect(first.reserved).toBe(3);
    });

    it('does not give back what is reserved when the new reservation fits at once', async () => {
      const store = new RecordingStore();
      const { budget } = budgetWith({ store });
      await budget.reserve(1, 3);
      expect(await budget.reserve(1, 2)).toBe(2);
      expect(budget.reserved).toBe(5);
      expect(store.calls.map((call) => call.method)).toEqual(['reserve', 'reserve']);
    });

    it('drops at its first request what it held while waiting, once that has left the window', async () => {
      const { budget, time } = budgetWith({ requestsPerMinute: 5 });
      const start = time.clock();
      await acquireTimes(budget, 2);
      expect(await budget.reserve(1, 3)).toBe(3);
      // The window is full; the one more wanted fits once the two taken at the start leave it, at 62.25 s.
      expect(await budget.reserve(1, 1)).toBe(1);
      expect(time.sleeps).toEqual([62_250]);
      expect(time.clock()).toBe(start + 62_250);
      expect(budget.reserved).toBe(4);
      // The three held, counted at 2.75 s, are about to leave the window: the next request is not taken
      // from them (its room may go to another user) but from the one reserved after the wait.
      await budget.acquire(context);
      expect(budget.reserved).toBe(0);
      expect(time.sleeps).toEqual([62_250]);
    });

    it('reserves nothing, asking nothing of the store, when at most 0 are wanted', async () => {
      const store = new RecordingStore();
      const { budget } = budgetWith({ store });
      expect(await budget.reserve(0, 0)).toBe(0);
      expect(store.calls).toEqual([]);
    });

    it('acquires from the reservation without touching the store, then from the store once it is used up', async () => {
      const store = new RecordingStore();
      const { budget } = budgetWith({ store });
      await budget.reserve(1, 3);
      await acquireTimes(budget, 3);
      expect(budget.reserved).toBe(0);
      expect(store.calls.map((call) => call.method)).toEqual(['reserve']);
      await budget.acquire(context);
      expect(store.calls.map((call) => call.method)).toEqual(['reserve', 'reserve']);
    });

    it('grants part of the reservation when only part of it fits the window', async () => {
      const { budget, time } = budgetWith({ requestsPerMinute: 5, maxWaitMs: 0 });
      await acquireTimes(budget, 2);
      expect(await budget.reserve(1, 10)).toBe(3);
      expect(budget.reserved).toBe(3);
      expect(await budget.remaining()).toBe(0);
      await acquireTimes(budget, 3);
      await expect(budget.acquire(context)).rejects.toBeInstanceOf(RequestBudgetExhaustedError);
      expect(time.sleeps).toEqual([]);
    });

    it('waits with the injected sleep until atLeast fit, then reserves', async () => {
      const { budget, time } = budgetWith({ requestsPerMinute: 5 });
      await acquireTimes(budget, 4);
      time.advance(10_000);
      // One is free but three are needed: the requests made at 0 s (counted at 2.25 s) leave at 62.25 s.
      expect(await budget.reserve(3, 5)).toBe(5);
      expect(time.sleeps).toEqual([52_250]);
    });

    it('sleeps until the retry time the store gives for atLeast, then asks again', async () => {
      const time = fakeTime();
      const store = new RecordingStore([{ granted: 0, retryAtMs: time.clock() + 4_000 }]);
      const { budget } = budgetWith({ store }, time);
      expect(await budget.reserve(2, 4)).toBe(4);
      expect(time.sleeps).toEqual([4_000]);
      expect(store.calls.map((call) => call.method)).toEqual(['reserve', 'reserve']);
    });

    it('reserves nothing and does not wait when atLeast would fit only after maxWaitMs', async () => {
      const { budget, time } = budgetWith({ requestsPerMinute: 5 });
      await acquireTimes(budget, 4);
      time.advance(10_000);
      expect(await budget.reserve(3, 5, 52_249)).toBe(0);
      expect(time.sleeps).toEqual([]);
      expect(budget.reserved).toBe(0);
      expect(await budget.remaining()).toBe(1);
    });

    it('waits for atLeast when it fits exactly at maxWaitMs', async () => {
      const { budget, time } = budgetWith({ requestsPerMinute: 5 });
      await acquireTimes(budget, 4);
      time.advance(10_000);
      expect(await budget.reserve(3, 5, 52_250)).toBe(5);
      expect(time.sleeps).toEqual([52_250]);
    });

    it('gives back exactly the unused part of the reservation in one store call', async () => {
      const store = new RecordingStore();
      const { budget } = budgetWith({ store });
      await budget.reserve(1, 5);
      const [, , request] = store.calls[0]?.args ?? [];
      await acquireTimes(budget, 2);
      await budget.release();
      expect(store.calls.slice(1)).toEqual([
        { method: 'release', args: [budget.key, (request as ReservationRequest).countAtMs, 3] },
      ]);
      expect(budget.reserved).toBe(0);
      await budget.release();
      expect(store.calls).toHaveLength(2);
    });

    it('frees the unused requests of the window when it gives them back', async () => {
      const { budget } = budgetWith({ requestsPerMinute: 5, maxWaitMs: 0 });
      await budget.reserve(1, 5);
      await acquireTimes(budget, 2);
      expect(await budget.remaining()).toBe(0);
      await budget.release();
      expect(await budget.remaining()).toBe(3);
    });

    it('asks nothing of the store on release when the reservation was used up', async () => {
      const store = new RecordingStore();
      const { budget } = budgetWith({ store });
      await budget.reserve(1, 2);
      await acquireTimes(budget, 2);
      await budget.release();
      expect(store.calls.map((call) => call.method)).toEqual(['reserve']);
    });

    it('postpones, in one write, what a reservation would send after it was counted', async () => {
      const store = new RecordingStore();
      const { budget, time } = budgetWith({ store });
      const start = time.clock();
      await budget.reserve(1, 3);
      await budget.acquire(context);
      // Answers came slowly: the second request goes out 1 s later, past the 2.75 s less its 2 s to arrive.
      time.advance(1_000);
      await budget.acquire(context);
      expect(budget.reserved).toBe(1);
      // The two left are counted later, at the second a request they have gone out at so far: nothing is
      // given back for another user of the token to take.
      expect(store.calls.map(({ method, args }) => [method, ...args.slice(1)])).toEqual([
        ['reserve', start, { atLeast: 1, atMost: 3, countAtMs: start + 2_750 }, 50, 60_000],
        ['postpone', start + 2_750, start + 1_000 + 2_000 + 2_000, 2],
      ]);
      // The last goes out at that pace, within what was counted: no write more.
      time.advance(1_000);
      await budget.acquire(context);
      expect(store.calls).toHaveLength(2);
    });

    it('postpones a lone request whose store write took longer than its allowance to arrive', async () => {
      const time = fakeTime();
      const start = time.clock();
      const store = reservingIn(time, 2_500);
      const { budget } = budgetWith({ store }, time);
      await budget.acquire(context);
      expect(store.calls.map(({ method, args }) => [method, ...args.slice(1)])).toEqual([
        ['reserve', start, { atLeast: 1, atMost: 1, countAtMs: start + 2_250 }, 50, 60_000],
        // Sent at 2.5 s: counted 2 s after that, and 250 ms for the request itself.
        ['postpone', start + 2_250, start + 2_500 + 2_250, 1],
      ]);
    });

    it('takes a lone request in one store write when that write takes a few milliseconds', async () => {
      const time = fakeTime();
      const store = reservingIn(time, 15);
      const { budget } = budgetWith({ store }, time);
      await budget.acquire(context);
      expect(store.calls.map(({ method }) => method)).toEqual(['reserve']);
    });

    it('sends nothing more from a reservation its postpone found gone from the window', async () => {
      const time = fakeTime();
      const store = new InMemoryBudgetCounterStore();
      const budget = () => budgetWith({ store, maxWaitMs: 10_000 }, time).budget;
      const [cycle, rival] = [budget(), budget()];
      const sends: number[] = [];
      expect(await cycle.reserve(3, 3)).toBe(3);
      await cycle.acquire(context);
      sends.push(time.clock());
      // The cycle stalls until its reservation (counted at 2.75 s) has just over 2 s left in the window.
      // Its postpone then waits 2.5 s behind the rival's write, which no longer counts the cycle's entries
      // and takes the whole window.
      time.advance(60_749);
      const postpone = store.postpone.bind(store);
      store.postpone = async (...args) => {
        time.advance(2_500);
        const got = await rival.reserve(1, 50, 0);
        for (let i = 0; i < got; i += 1) sends.push(time.clock());
        return postpone(...args);
      };
      const next = await cycle.acquire(context).then(
        () => time.clock(),
        (error: unknown) => error,
      );
      if (typeof next === 'number') sends.push(next);
      else expect(next).toBeInstanceOf(RequestBudgetExhaustedError);
      const inLastMinute = sends.filter((at) => at > time.clock() - 60_000);
      expect(inLastMinute.length).toBeLessThanOrEqual(50);
    });

    it('drops a reservation that left the window before its requests went out, and takes them one by one', async () => {
      const store = new RecordingStore();
      const { budget, time } = budgetWith({ store });
      const start = time.clock();
      await budget.reserve(1, 3);
      // A cycle stalled for a minute: the reservation's room may have gone to another user of the token.
      time.advance(62_750);
      await budget.acquire(context);
      expect(budget.reserved).toBe(0);
      expect(store.calls.map(({ method, args }) => [method, ...args.slice(1, 3)])).toEqual([
        ['reserve', start, { atLeast: 1, atMost: 3, countAtMs: start + 2_750 }],
        ['reserve', start + 62_750, { atLeast: 1, atMost: 1, countAtMs: start + 65_000 }],
      ]);
    });

    it('sends from its reservation without asking the store again while requests go out in time', async () => {
      const store = new RecordingStore();
      const { budget, time } = budgetWith({ store });
      await budget.reserve(1, 3);
      for (let i = 0; i < 3; i += 1) {
        await budget.acquire(context);
        time.advance(250);
      }
      expect(store.calls.map(({ method }) => method)).toEqual(['reserve']);
    });

    it('drops the reservation when the server says to back off, without sending its requests', async () => {
      const store = new RecordingStore();
      const { budget, time } = budgetWith({ store });
      await budget.reserve(1, 3);
      await budget.pauseUntil(time.clock() + 5_000);
      expect(budget.reserved).toBe(0);
      await budget.acquire(context);
      expect(store.calls.map((call) => call.method)).toEqual(['reserve', 'pauseUntil', 'reserve']);
    });
  });
});
