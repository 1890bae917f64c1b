import { afterEach, describe, expect, it } from 'vitest';
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../simulator/startSimulator.js';
import { call, T0 } from './simulatorHttp.js';

let sim: RunningSimulator | undefined;

async function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  sim = await startSimulator({
    clock: () => T0,
    scenario: false,
    initialOrders: 10,
    requestsPerMinute: 1000,
    ...options,
  });
  return sim;
}

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const statuses = async (running: RunningSimulator, count: number) => {
  const seen: number[] = [];
  for (let i = 0; i < count; i += 1) seen.push((await call(running, '/orders')).status);
  return seen;
};

describe('simulator fault injection', () => {
  it('answers every authenticated request with a server error at rate 1, in the envelope', async () => {
    const running = await start({ faults: { errorRate: 1 } });
    const answer = await call(running, '/orders');
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ success: false, message: 'Server Error.' });
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('999');
    expect((await call(running, '/orders', { token: 'bad' })).status).toBe(401);
  });

  it('fails a seeded share of requests, the same ones on every run, and can be switched off at runtime', async () => {
    const first = await statuses(await start({ seed: 5, faults: { errorRate: 0.5, errorStatus: 503 } }), 30);
    await sim?.close();
    const second = await statuses(await start({ seed: 5, faults: { errorRate: 0.5, errorStatus: 503 } }), 30);
    expect(second).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
    sim?.faults.set({ errorRate: 0 });
    expect(new Set(await statuses(sim as RunningSimulator, 10))).toEqual(new Set([200]));
  });

  it('forces exactly n 429s with Retry-After, then serves again', async () => {
    const running = await start();
    running.faults.force429(2, 3);
    const refused = await call(running, '/orders');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await call(running, '/establishments')).status).toBe(429);
    expect((await call(running, '/orders')).status).toBe(200);
  });

  it('does not spend a forced 429 on an unauthenticated request', async () => {
    const running = await start({ faults: { force429: 1 } });
    expect((await call(running, '/orders', { token: null })).status).toBe(401);
    expect((await call(running, '/orders')).status).toBe(429);
    expect((await call(running, '/orders')).status).toBe(200);
  });

  it('adds the configured latency through the injected delay, never a real sleep', async () => {
    const waits: number[] = [];
    const running = await start({
      faults: { latencyMs: 1500 },
      delay: async (ms) => {
        waits.push(ms);
      },
    });
    expect((await call(running, '/orders')).status).toBe(200);
    running.faults.set({ latencyMs: 0 });
    await call(running, '/orders');
    running.faults.set({ latencyMs: 20 });
    await call(running, '/products');
    expect(waits).toEqual([1500, 20]);
  });

  it('can point the pagination links at another origin, to test that clients refuse to follow them', async () => {
    const running = await start({ initialOrders: 100, faults: { linkOrigin: 'http://evil.example:8080' } });
    const answer = await call(running, '/orders', {
      query: { status: 'pending', start_date: '2026-03-01', end_date: '2026-03-31' },
    });
    expect(answer.body.links.next).toMatch(/^http:\/\/evil\.example:8080\/api\/v1\/admin\/orders\?/);
    expect(answer.body.meta.path).toBe('http://evil.example:8080/api/v1/admin/orders');
  });
});
