import { afterEach, describe, expect, it } from 'vitest';
import { OrderSchema } from '../../../shared/api/schemas.js';
import type { PickupFormat } from '../../../simulator/pickupFormat.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { call, T0 } from './simulatorHttp.js';

let sim: RunningSimulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function pickupDates(
  format: PickupFormat | undefined,
  requests: number,
): Promise<Array<Map<string, string>>> {
  sim = await startSimulator({
    clock: () => T0,
    scenario: false,
    ...(format ? { pickupFormat: format } : {}),
  });
  const answers: Array<Map<string, string>> = [];
  for (let i = 0; i < requests; i += 1) {
    const answer = await call(sim, '/orders');
    expect(answer.status).toBe(200);
    for (const order of answer.body.data) {
      const parsed = OrderSchema.parse(order);
      expect(parsed.pickup_at).toBe(sim.world.getOrder(parsed.uuid)?.pickup_at);
    }
    answers.push(
      new Map(
        answer.body.data.map((order: { uuid: string; pickup_at: string }) => [order.uuid, order.pickup_at]),
      ),
    );
  }
  return answers;
}

describe('simulator pickup_at forms', () => {
  it('writes YYYY-MM-DD in the iso form', async () => {
    const [dates] = await pickupDates('iso', 1);
    expect([...(dates?.values() ?? [])].every((date) => /^\d{4}-\d{2}-\d{2}$/.test(date))).toBe(true);
  });

  it('writes DD/MM/YY in the dmy form, as the spec sample does', async () => {
    const [dates] = await pickupDates('dmy', 1);
    expect([...(dates?.values() ?? [])].every((date) => date === '10/03/26')).toBe(true);
  });

  it('mixes both forms by default, flipping each order between requests', async () => {
    const [first, second] = await pickupDates(undefined, 2);
    if (!first || !second) throw new Error('two answers expected');
    expect(new Set(first.values())).toEqual(new Set(['2026-03-10', '10/03/26']));
    for (const [uuid, date] of first) expect(second.get(uuid)).not.toBe(date);
  });
});
