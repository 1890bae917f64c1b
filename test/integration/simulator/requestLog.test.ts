import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { call, T0 } from './simulatorHttp.js';

let sim: RunningSimulator;
let now = T0;

beforeAll(async () => {
  sim = await startSimulator({ clock: () => now, scenario: false, initialOrders: 0 });
});
afterAll(() => sim.close());

describe('simulator request log', () => {
  it('records method, path, query, status, time and request headers of every request', async () => {
    sim.requestLog.clear();
    now = T0 + 5000;
    await call(sim, '/orders', { query: { status: 'canceled', page: '2' } });
    await call(sim, '/orders', { token: null });
    await call(sim, '/nowhere', { method: 'POST' });

    expect(sim.requestLog.size).toBe(3);
    const [listing, unauthenticated, missing] = sim.requestLog.all();
    expect(listing).toMatchObject({
      at: T0 + 5000,
      method: 'GET',
      path: '/api/v1/admin/orders',
      query: { status: 'canceled', page: '2' },
      status: 200,
    });
    expect(listing?.headers).toMatchObject({
      authorization: `Bearer ${sim.token}`,
      'x-service-organization': sim.organization.id,
      accept: 'application/json',
    });
    expect(unauthenticated?.status).toBe(401);
    expect(unauthenticated?.headers.authorization).toBeUndefined();
    expect(missing).toMatchObject({ method: 'POST', path: '/api/v1/admin/nowhere', status: 404 });
    expect(sim.requestLog.forPath('/orders')).toHaveLength(2);
    expect(sim.requestLog.last()?.status).toBe(404);
  });

  it('hands out copies and can be cleared', async () => {
    await call(sim, '/products');
    const entries = sim.requestLog.all();
    entries.length = 0;
    expect(sim.requestLog.size).toBeGreaterThan(0);
    sim.requestLog.clear();
    expect(sim.requestLog.size).toBe(0);
  });
});
