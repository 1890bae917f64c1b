import { describe, expect, it } from 'vitest';
import {
  type BudgetCounterStore,
  type BudgetTake,
  InMemoryBudgetCounterStore,
} from '../../../shared/api/budgetCounterStore.js';
import { RequestBudgetExhaustedError, type RequestContext } from '../../../shared/api/errors.js';
import { RequestBudget, type RequestBudgetOptions } from '../../../shared/api/requestBudget.js';
import { fakeTime, rejectionOf, TEST_TOKEN } from '../../support/apiClientHarness.js';

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

class RecordingStore implements BudgetCounterStore {
  readonly calls: Array<{ method: string; args: unknown[] }> = [];
  constructor(private readonly answers: BudgetTake[] = []) {}

  async tryTake(key: string, nowMs: number, limit: number, windowMs: number): Promise<BudgetTake> {
    this.calls.push({ method: 'tryTake', args: [key, nowMs, limit, windowMs] });
    return this.answers.shift() ?? { granted: true, remaining: 1 };
  }
  async remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    this.calls.push({ method: 'remaining', args: [key, nowMs, limit, windowMs] });
    return 17;
  }
  async pauseUntil(key: string, untilMs: number): Promise<void> {
    this.calls.push({ method: 'pauseUntil', args: [key, untilMs] });
  }
}

describe('RequestBudget', () => {
  it('allows 50 requests per minute by default', async () => {
    const { budget, time } = budgetWith({ maxWaitMs: 0 });
    expect(budget.requestsPerMinute).toBe(50);
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
    // The first request (at 0 s) leaves the window at 60 s; it is now 20 s.
    expect(time.sleeps).toEqual([40_000]);
  });

  it('throws RequestBudgetExhaustedError when the wait would exceed maxWaitMs', async () => {
    const { budget, time } = budgetWith({ requestsPerMinute: 1, maxWaitMs: 59_999 });
    await budget.acquire(context);
    const error = await rejectionOf(budget.acquire(context));
    expect(error).toBeInstanceOf(RequestBudgetExhaustedError);
    expect((error as RequestBudgetExhaustedError).retryAtMs).toBe(time.clock() + 60_000);
    expect(error.message).toContain('Escola Norte');
    expect(error.message).toContain('GET /orders');
    expect(error.message).not.toContain(TEST_TOKEN);
    expect(time.sleeps).toEqual([]);
  });

  it('waits when the wait is exactly maxWaitMs', async () => {
    const { budget, time } = budgetWith({ requestsPerMinute: 1, maxWaitMs: 60_000 });
    await acquireTimes(budget, 2);
    expect(time.sleeps).toEqual([60_000]);
  });

  it('uses the injected counter store, under a key, limit and one-minute window', async () => {
    const store = new RecordingStore();
    const { budget, time } = budgetWith({ store, requestsPerMinute: 7 });
    await budget.acquire(context);
    expect(await budget.remaining()).toBe(17);
    await budget.pauseUntil(time.clock() + 1_000);
    expect(store.calls).toEqual([
      { method: 'tryTake', args: [budget.key, time.clock(), 7, 60_000] },
      { method: 'remaining', args: [budget.key, time.clock(), 7, 60_000] },
      { method: 'pauseUntil', args: [budget.key, time.clock() + 1_000] },
    ]);
  });

  it('sleeps until the retry time the store gives, then asks again', async () => {
    const time = fakeTime();
    const store = new RecordingStore([{ granted: false, retryAtMs: time.clock() + 2_500 }]);
    const { budget } = budgetWith({ store }, time);
    await budget.acquire(context);
    expect(time.sleeps).toEqual([2_500]);
    expect(store.calls.map((call) => call.method)).toEqual(['tryTake', 'tryTake']);
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
});
