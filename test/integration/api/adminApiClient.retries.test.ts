// Retries and the request budget through the client. Time is injected: sleep records the delay and moves
// the fake clock, so every wait is asserted exactly and no test waits real time.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BudgetCounterStore,
  type BudgetReservation,
  InMemoryBudgetCounterStore,
  type ReservationRequest,
} from '../../../shared/api/budgetCounterStore.js';
import {
  BadRequestError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  RequestBudgetExhaustedError,
  ServerError,
  UnauthorizedError,
  ValidationError,
} from '../../../shared/api/errors.js';
import { RequestBudget } from '../../../shared/api/requestBudget.js';
import {
  closeTestClients,
  createTestClient,
  type FakeTime,
  fakeTime,
  rejectionOf,
  TEST_TOKEN,
} from '../../support/apiClientHarness.js';
import { closedPort, closeServed, sendJson, serve } from '../../support/loopbackServer.js';
import { envelope, makeOrders, paginatedEnvelope } from '../../support/orderFactory.js';

afterEach(async () => {
  await closeTestClients();
  await closeServed();
});

const ok = envelope([]);

/** Answers the first `failures` requests with `status` (and headers), then an empty listing. */
function failThenSucceed(
  failures: number,
  status: number,
  headers: () => Record<string, string> = () => ({}),
) {
  return serve((_req, res, hit) =>
    hit <= failures
      ? sendJson(res, status, { success: false, message: `failure ${hit}` }, headers())
      : sendJson(res, 200, ok),
  );
}

/** A server that notes the fake clock at each request it receives. */
async function serveTimed(time: FakeTime, body: (hit: number) => [number, unknown, Record<string, string>?]) {
  const times: number[] = [];
  const server = await serve((_req, res, hit) => {
    times.push(time.clock());
    const [status, payload, headers] = body(hit);
    sendJson(res, status, payload, headers);
  });
  return { server, times };
}

describe('AdminApiClient retries after 429', () => {
  it('waits exactly the Retry-After seconds, then succeeds', async () => {
    const server = await failThenSucceed(1, 429, () => ({ 'retry-after': '3' }));
    const { client, time, attempts } = createTestClient(server.baseUrl);
    const listing = await client.listOrders();
    expect(listing.records).toEqual([]);
    expect(time.sleeps).toEqual([3_000]);
    expect(server.requests).toHaveLength(2);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.retryInMs])).toEqual([
      [1, 429, 3_000],
      [2, 200, undefined],
    ]);
    expect(attempts[0]?.error).toBeInstanceOf(RateLimitedError);
  });

  it('waits until a Retry-After HTTP date', async () => {
    const time = fakeTime();
    const at = new Date(time.clock() + 5_000).toUTCString();
    const server = await failThenSucceed(1, 429, () => ({ 'retry-after': at }));
    const { client } = createTestClient(server.baseUrl, {}, time);
    await client.listOrders();
    expect(time.sleeps).toEqual([5_000]);
  });

  it('waits for X-RateLimit-Reset when X-RateLimit-Remaining is 0', async () => {
    const time = fakeTime();
    const reset = String(time.clock() / 1000 + 7);
    const server = await failThenSucceed(1, 429, () => ({
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': reset,
    }));
    const { client } = createTestClient(server.baseUrl, {}, time);
    await client.listOrders();
    expect(time.sleeps).toEqual([7_000]);
  });

  it('backs off with jitter after a 429 that says nothing about waiting', async () => {
    const server = await failThenSucceed(2, 429);
    const { client, time } = createTestClient(server.baseUrl);
    await client.listOrders();
    expect(time.sleeps).toEqual([375, 750]);
  });

  it('gives up with RateLimitedError after maxAttempts', async () => {
    const server = await failThenSucceed(10, 429, () => ({ 'retry-after': '1' }));
    const { client, time } = createTestClient(server.baseUrl, { retry: { maxAttempts: 3 } });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(1_000);
    expect(server.requests).toHaveLength(3);
    expect(time.sleeps).toEqual([1_000, 1_000]);
  });

  it('gives up at once when Retry-After is longer than maxElapsedMs allows', async () => {
    const server = await failThenSucceed(1, 429, () => ({ 'retry-after': '120' }));
    const { client, time } = createTestClient(server.baseUrl, { retry: { maxElapsedMs: 60_000 } });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toContain('retry after 120 s');
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });
});

describe('AdminApiClient retries after 5xx and network failures', () => {
  it('backs off exponentially with jitter and recovers', async () => {
    const server = await failThenSucceed(3, 503);
    const { client, time } = createTestClient(server.baseUrl);
    await client.listOrders();
    expect(time.sleeps).toEqual([375, 750, 1_500]);
    expect(server.requests).toHaveLength(4);
  });

  it('draws the jitter from the injected random', async () => {
    const server = await failThenSucceed(3, 500);
    const { client, time } = createTestClient(server.baseUrl, { random: () => 0 });
    await client.listOrders();
    expect(time.sleeps).toEqual([250, 500, 1_000]);
  });

  it('gives up with ServerError after maxAttempts attempts', async () => {
    const server = await failThenSucceed(10, 502);
    const { client, time, attempts } = createTestClient(server.baseUrl, { retry: { maxAttempts: 3 } });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toContain('(502)');
    expect(server.requests).toHaveLength(3);
    expect(time.sleeps).toEqual([375, 750]);
    expect(attempts.at(-1)?.retryInMs).toBeUndefined();
  });

  it('gives up when the next wait would exceed maxElapsedMs', async () => {
    const server = await failThenSucceed(10, 500);
    const { client, time } = createTestClient(server.baseUrl, {
      retry: { maxAttempts: 10, maxElapsedMs: 1_000 },
    });
    await expect(client.listOrders()).rejects.toBeInstanceOf(ServerError);
    // 375 ms fits; 375 + 750 would end after 1 s.
    expect(time.sleeps).toEqual([375]);
    expect(server.requests).toHaveLength(2);
  });

  it('caps one backoff step at maxDelayMs', async () => {
    const server = await failThenSucceed(4, 500);
    const { client, time } = createTestClient(server.baseUrl, {
      random: () => 1,
      retry: { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 2_500 },
    });
    await client.listOrders();
    expect(time.sleeps).toEqual([1_000, 2_000, 2_500, 2_500]);
  });

  it('retries a refused connection with backoff, then raises NetworkError', async () => {
    const port = await closedPort();
    const { client, time, attempts } = createTestClient(`http://127.0.0.1:${port}/api/v1/admin`, {
      retry: { maxAttempts: 3 },
    });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(NetworkError);
    expect(time.sleeps).toEqual([375, 750]);
    expect(attempts).toHaveLength(3);
    expect(client.requestCount).toBe(3);
  });

  it('recovers when the server answers again after dropping connections', async () => {
    const server = await serve((req, res, hit) =>
      hit === 1 ? req.socket.destroy() : sendJson(res, 200, ok),
    );
    const { client, time } = createTestClient(server.baseUrl);
    await client.listOrders();
    expect(time.sleeps).toEqual([375]);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
    [422, ValidationError],
  ])('does not retry a %i: exactly one request reaches the server', async (status, errorClass) => {
    const server = await failThenSucceed(10, status);
    const { client, time } = createTestClient(server.baseUrl);
    await expect(client.listOrders()).rejects.toBeInstanceOf(errorClass);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });
});

class RecordingStore implements BudgetCounterStore {
  readonly calls: Array<[string, ...unknown[]]> = [];
  readonly #inner = new InMemoryBudgetCounterStore();

  remaining(key: string, nowMs: number, limit: number, windowMs: number): Promise<number> {
    this.calls.push(['remaining', key, nowMs, limit, windowMs]);
    return this.#inner.remaining(key, nowMs, limit, windowMs);
  }
  reserve(
    key: string,
    nowMs: number,
    request: ReservationRequest,
    limit: number,
    windowMs: number,
  ): Promise<BudgetReservation> {
    this.calls.push(['reserve', key, nowMs, request, limit, windowMs]);
    return this.#inner.reserve(key, nowMs, request, limit, windowMs);
  }
  release(key: string, countAtMs: number, count: number): Promise<void> {
    this.calls.push(['release', key, countAtMs, count]);
    return this.#inner.release(key, countAtMs, count);
  }
  postpone(key: string, fromMs: number, toMs: number, count: number): Promise<number> {
    this.calls.push(['postpone', key, fromMs, toMs, count]);
    return this.#inner.postpone(key, fromMs, toMs, count);
  }
  pauseUntil(key: string, untilMs: number): Promise<void> {
    this.calls.push(['pauseUntil', key, untilMs]);
    return this.#inner.pauseUntil(key, untilMs);
  }
}

function budgetFor(time: FakeTime, options: Partial<ConstructorParameters<typeof RequestBudget>[0]> = {}) {
  return new RequestBudget({ token: TEST_TOKEN, clock: time.clock, sleep: time.sleep, ...options });
}

describe('AdminApiClient request budget', () => {
  it('gives each client a budget of 50 requests per minute by default, all of them usable', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, ok));
    const { client } = createTestClient(server.baseUrl);
    expect(client.budget.requestsPerMinute).toBe(50);
    expect(client.budget.usablePerMinute).toBe(50);
    await client.listOrders();
    expect(await client.budget.remaining()).toBe(49);
  });

  it('takes one unit of budget per HTTP request, retries included, from the injected store', async () => {
    const time = fakeTime();
    const store = new RecordingStore();
    const server = await failThenSucceed(1, 503);
    const { client } = createTestClient(
      server.baseUrl,
      { budget: budgetFor(time, { store, requestsPerMinute: 7 }) },
      time,
    );
    await client.listOrders();
    const takes = store.calls.filter((call) => call[0] === 'reserve');
    expect(takes).toHaveLength(2);
    for (const [, key, , request, limit, windowMs] of takes) {
      expect(request).toMatchObject({ atLeast: 1, atMost: 1 });
      expect(key).toBe(client.budget.key);
      expect(String(key)).not.toContain(TEST_TOKEN);
      expect(limit).toBe(7);
      expect(windowMs).toBe(60_000);
    }
  });

  it('waits for the window when the budget is used up mid-listing', async () => {
    const time = fakeTime();
    const start = time.clock();
    const { server, times } = await serveTimed(time, (hit) => [
      200,
      paginatedEnvelope(makeOrders(hit < 3 ? 25 : 1), {
        path: `${server.baseUrl}/orders`,
        page: hit,
        lastPage: 3,
        total: 51,
      }),
    ]);
    const { client } = createTestClient(
      server.baseUrl,
      { budget: budgetFor(time, { requestsPerMinute: 2 }) },
      time,
    );
    const listing = await client.listOrders();
    expect(listing.records).toHaveLength(51);
    // The first request, counted 2.25 s after it went out, leaves the window a minute later.
    expect(time.sleeps).toEqual([62_250]);
    expect(times).toEqual([start, start, start + 62_250]);
  });

  it('throws RequestBudgetExhaustedError, sending nothing, when the wait would exceed maxWaitMs', async () => {
    const time = fakeTime();
    const server = await serve((_req, res) => sendJson(res, 200, ok));
    const budget = budgetFor(time, { requestsPerMinute: 1, maxWaitMs: 30_000 });
    const { client } = createTestClient(server.baseUrl, { budget, organizationName: 'Escola Norte' }, time);
    await client.listOrders();
    const error = await rejectionOf(client.listOrders({ status: 'pending' }));
    expect(error).toBeInstanceOf(RequestBudgetExhaustedError);
    expect(error.message).toContain('Escola Norte');
    expect(error.message).toContain('GET /orders?status=pending');
    expect(error.message).not.toContain(TEST_TOKEN);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it('shares the limit between clients of the same token on one store', async () => {
    const time = fakeTime();
    const store = new InMemoryBudgetCounterStore();
    const server = await serve((_req, res) => sendJson(res, 200, ok));
    const options = { store, requestsPerMinute: 2, maxWaitMs: 0 };
    const first = createTestClient(server.baseUrl, { budget: budgetFor(time, options) }, time).client;
    const second = createTestClient(server.baseUrl, { budget: budgetFor(time, options) }, time).client;
    await first.listOrders();
    await first.listEstablishments();
    await expect(second.listOrders()).rejects.toBeInstanceOf(RequestBudgetExhaustedError);
    expect(server.requests).toHaveLength(2);
  });

  it('keeps the limits of different tokens apart on one store', async () => {
    const time = fakeTime();
    const store = new InMemoryBudgetCounterStore();
    const server = await serve((_req, res) => sendJson(res, 200, ok));
    const options = { store, requestsPerMinute: 2, maxWaitMs: 0 };
    const first = createTestClient(server.baseUrl, { budget: budgetFor(time, options) }, time).client;
    const other = createTestClient(
      server.baseUrl,
      { token: 'another-token', budget: budgetFor(time, { ...options, token: 'another-token' }) },
      time,
    ).client;
    await first.listOrders();
    await first.listEstablishments();
    await other.listOrders();
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]?.headers.authorization).toBe('Bearer another-token');
  });

  it('pauses the whole budget on a 429, holding back another client of the same token', async () => {
    const time = fakeTime();
    const start = time.clock();
    const store = new RecordingStore();
    const limited = await failThenSucceed(10, 429, () => ({ 'retry-after': '30' }));
    const first = createTestClient(
      limited.baseUrl,
      { budget: budgetFor(time, { store }), retry: { maxAttempts: 1 } },
      time,
    ).client;
    await expect(first.listOrders()).rejects.toBeInstanceOf(RateLimitedError);
    expect(store.calls).toContainEqual(['pauseUntil', first.budget.key, start + 30_000]);
    expect(await first.budget.remaining()).toBe(0);

    const { server: other, times } = await serveTimed(time, () => [200, ok]);
    const second = createTestClient(other.baseUrl, { budget: budgetFor(time, { store }) }, time).client;
    await second.listOrders();
    expect(time.sleeps).toEqual([30_000]);
    expect(times).toEqual([start + 30_000]);
  });

  it('does not pause the budget of another token on a 429', async () => {
    const time = fakeTime();
    const store = new InMemoryBudgetCounterStore();
    const limited = await failThenSucceed(10, 429, () => ({ 'retry-after': '30' }));
    const first = createTestClient(
      limited.baseUrl,
      { budget: budgetFor(time, { store }), retry: { maxAttempts: 1 } },
      time,
    ).client;
    await expect(first.listOrders()).rejects.toBeInstanceOf(RateLimitedError);
    expect(await budgetFor(time, { store, token: 'another-token' }).remaining()).toBe(50);
  });
});
