import { afterEach, describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../../shared/http/retryAfter.js';
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../simulator/startSimulator.js';
import { call, T0 } from './simulatorHttp.js';

let sim: RunningSimulator | undefined;
let now = T0;

async function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  now = T0;
  sim = await startSimulator({ clock: () => now, scenario: false, initialOrders: 5, ...options });
  return sim;
}

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('simulator rate limit', () => {
  it('serves 50 requests in a minute with the remaining count, then answers 429 with Retry-After', async () => {
    const running = await start();
    for (let i = 1; i <= 50; i += 1) {
      now = T0 + i * 100;
      const answer = await call(running, '/orders');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('50');
      expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(50 - i));
    }
    now = T0 + 10_000;
    const refused = await call(running, '/orders');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, message: 'Too Many Attempts.' });
    // The first request (at T0 + 100 ms) leaves the window at T0 + 60.1 s: 50.1 s from now, rounded up.
    expect(refused.headers.get('retry-after')).toBe('51');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('50');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(retryAfterMs(Object.fromEntries(refused.headers), now)).toBe(51_000);
  });

  it('recovers once the oldest requests leave the sliding window', async () => {
    const running = await start({ requestsPerMinute: 3 });
    for (const at of [0, 20_000, 40_000]) {
      now = T0 + at;
      expect((await call(running, '/establishments')).status).toBe(200);
    }
    now = T0 + 59_999;
    expect((await call(running, '/establishments')).status).toBe(429);
    now = T0 + 60_000;
    const first = await call(running, '/establishments');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
    now = T0 + 60_001;
    expect((await call(running, '/establishments')).status).toBe(429);
    now = T0 + 80_000;
    expect((await call(running, '/establishments')).status).toBe(200);
  });

  it('counts every authenticated request, also those answered 403 or 422, but not unauthenticated ones', async () => {
    const running = await start({ requestsPerMinute: 4 });
    const [, second] = running.organizations;
    expect((await call(running, '/orders', { organization: second?.id ?? '' })).status).toBe(403);
    expect((await call(running, '/orders', { query: { status: 'nope' } })).status).toBe(422);
    expect((await call(running, '/orders', { token: 'bad' })).status).toBe(401);
    expect((await call(running, '/orders', { organization: null })).status).toBe(400);
    expect((await call(running, '/products')).headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await call(running, '/products')).status).toBe(200);
    expect((await call(running, '/products')).status).toBe(429);
  });

  it('keeps a separate budget per token', async () => {
    const running = await start({ requestsPerMinute: 1 });
    running.access.grant('second-token', running.organization.id);
    expect((await call(running, '/orders')).status).toBe(200);
    expect((await call(running, '/orders')).status).toBe(429);
    expect((await call(running, '/orders', { token: 'second-token' })).status).toBe(200);
  });
});
