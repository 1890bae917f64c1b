import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderSchema } from '../../../shared/api/schemas.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { call, T0 } from './simulatorHttp.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ clock: () => T0, scenario: false, initialOrders: 0, ordersShape: 'bare' });
  for (let i = 0; i < 30; i += 1) sim.world.addOrder({ createdAtMs: T0 - i * 1000 });
});
afterAll(() => sim.close());

describe('simulator bare orders shape', () => {
  it('answers GET /orders with a plain array of valid orders, still 25 to a page', async () => {
    const first = await call(sim, '/orders');
    expect(first.status).toBe(200);
    expect(Array.isArray(first.body)).toBe(true);
    expect(first.body).toHaveLength(25);
    for (const order of first.body) expect(OrderSchema.safeParse(order).success).toBe(true);
    const second = await call(sim, '/orders', { query: { page: '2' } });
    expect(second.body).toHaveLength(5);
    const third = await call(sim, '/orders', { query: { page: '3' } });
    expect(third.body).toEqual([]);
    const all = [...first.body, ...second.body].map((order: { uuid: string }) => order.uuid);
    expect(new Set(all).size).toBe(30);
  });

  it('keeps the envelope for errors and for the other listings', async () => {
    const invalid = await call(sim, '/orders', { query: { status: 'x' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ success: false, errors: { status: expect.any(Array) } });
    const establishments = await call(sim, '/establishments');
    expect(establishments.body.success).toBe(true);
  });
});
