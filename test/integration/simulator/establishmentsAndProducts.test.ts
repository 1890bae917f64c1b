import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EstablishmentSchema, ProductSchema } from '../../../shared/api/schemas.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { call, T0 } from './simulatorHttp.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ clock: () => T0, scenario: false });
});
afterAll(() => sim.close());

describe('GET /establishments and GET /products', () => {
  it('lists every establishment as a full record in the envelope, without pagination keys', async () => {
    const answer = await call(sim, '/establishments');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(answer.body).sort()).toEqual(['data', 'message', 'success']);
    expect(answer.body.success).toBe(true);
    expect(answer.body.data.length).toBeGreaterThanOrEqual(3);
    for (const record of answer.body.data) expect(EstablishmentSchema.parse(record)).toEqual(record);
    expect(answer.body.data).toEqual(sim.world.establishments());
    const types = new Set(
      answer.body.data.map(
        (record: { allowed_order_pickup_time_type: string }) => record.allowed_order_pickup_time_type,
      ),
    );
    expect(types.has('anytime')).toBe(true);
    expect(types.size).toBeGreaterThan(1);
  });

  it('lists products with prices, class prices and class restrictions in the envelope', async () => {
    const answer = await call(sim, '/products');
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    expect(answer.body.data.length).toBeGreaterThan(3);
    for (const record of answer.body.data) {
      expect(ProductSchema.safeParse(record).success).toBe(true);
      expect(record).toMatchObject({
        uuid: expect.any(String),
        sku: expect.any(String),
        price: { amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'EUR' },
        class_prices: expect.any(Array),
        class_restrictions: expect.any(Array),
      });
    }
    expect(
      answer.body.data.some((record: { class_prices: unknown[] }) => record.class_prices.length > 0),
    ).toBe(true);
  });
});
