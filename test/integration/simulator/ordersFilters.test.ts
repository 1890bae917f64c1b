import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderSchema } from '../../../shared/api/schemas.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import type { OrderOverrides } from '../../../simulator/world.js';
import { call, T0, TODAY } from './simulatorHttp.js';

let sim: RunningSimulator;
let now = T0;
const YESTERDAY = addDays(TODAY, -1);
const TOMORROW = addDays(TODAY, 1);
const ids: Record<string, string> = {};

function add(name: string, overrides: OrderOverrides): void {
  ids[name] = sim.world.addOrder(overrides).uuid;
}

const uuidsOf = (body: { data: Array<{ uuid: string }> }) => new Set(body.data.map((order) => order.uuid));
const named = (...names: string[]) => new Set(names.map((name) => ids[name]));

beforeAll(async () => {
  sim = await startSimulator({ clock: () => now, scenario: false, initialOrders: 0 });
  const [a, b] = sim.world.establishments();
  if (!a || !b) throw new Error('the world has establishments');
  add('todayCardA', { establishment: a.uuid, paymentMethod: 'card' });
  add('todayCashB', { establishment: b.uuid, paymentMethod: 'cash' });
  add('todayCreditA', { establishment: a.uuid, paymentMethod: 'credit' });
  add('tomorrowCardB', { establishment: b.uuid, paymentMethod: 'card', pickupDate: TOMORROW });
  add('yesterdayCardA', { establishment: a.uuid, paymentMethod: 'card', pickupDate: YESTERDAY });
  add('canceledToday', { establishment: a.uuid, status: 'canceled' });
  add('completedToday', { establishment: b.uuid, status: 'completed' });
  add('archivedToday', { establishment: a.uuid, status: 'archived' });
  add('inThreeDays', { establishment: a.uuid, pickupDate: addDays(TODAY, 3) });
});
afterAll(() => sim.close());

describe('GET /orders filters', () => {
  it("with no parameters lists only today's pending orders from every establishment", async () => {
    const answer = await call(sim, '/orders');
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    expect(uuidsOf(answer.body)).toEqual(named('todayCardA', 'todayCashB', 'todayCreditA'));
    for (const order of answer.body.data) expect(OrderSchema.safeParse(order).success).toBe(true);
  });

  it('filters by each status, still defaulting the dates to today', async () => {
    const byStatus = async (status: string) =>
      uuidsOf((await call(sim, '/orders', { query: { status } })).body);
    expect(await byStatus('canceled')).toEqual(named('canceledToday'));
    expect(await byStatus('completed')).toEqual(named('completedToday'));
    expect(await byStatus('archived')).toEqual(named('archivedToday'));
  });

  it('filters by establishment, and lists nothing for a uuid that is no establishment', async () => {
    const [a] = sim.world.establishments();
    const answer = await call(sim, '/orders', { query: { establishment: a?.uuid ?? '' } });
    expect(uuidsOf(answer.body)).toEqual(named('todayCardA', 'todayCreditA'));
    const unknown = await call(sim, '/orders', {
      query: { establishment: '3c0f6c9e-1111-4222-8333-444455556666' },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual([]);
  });

  it('filters on the pickup date with both bounds inclusive', async () => {
    const range = async (start_date: string, end_date: string) =>
      uuidsOf((await call(sim, '/orders', { query: { start_date, end_date } })).body);
    expect(await range(YESTERDAY, TOMORROW)).toEqual(
      named('yesterdayCardA', 'todayCardA', 'todayCashB', 'todayCreditA', 'tomorrowCardB'),
    );
    expect(await range(TOMORROW, TOMORROW)).toEqual(named('tomorrowCardB'));
    expect(await range(TOMORROW, addDays(TODAY, 3))).toEqual(named('tomorrowCardB', 'inThreeDays'));
  });

  it('defaults a missing bound to today', async () => {
    const fromYesterday = await call(sim, '/orders', { query: { start_date: YESTERDAY } });
    expect(uuidsOf(fromYesterday.body)).toEqual(
      named('yesterdayCardA', 'todayCardA', 'todayCashB', 'todayCreditA'),
    );
    const untilTomorrow = await call(sim, '/orders', { query: { end_date: TOMORROW } });
    expect(uuidsOf(untilTomorrow.body)).toEqual(
      named('todayCardA', 'todayCashB', 'todayCreditA', 'tomorrowCardB'),
    );
  });

  it('filters by payment method type', async () => {
    const byMethod = async (payment_method_type: string) =>
      uuidsOf((await call(sim, '/orders', { query: { payment_method_type } })).body);
    expect(await byMethod('card')).toEqual(named('todayCardA'));
    expect(await byMethod('cash')).toEqual(named('todayCashB'));
    expect(await byMethod('credit')).toEqual(named('todayCreditA'));
  });

  it('combines filters', async () => {
    const [, b] = sim.world.establishments();
    const answer = await call(sim, '/orders', {
      query: {
        establishment: b?.uuid ?? '',
        payment_method_type: 'card',
        start_date: TODAY,
        end_date: TOMORROW,
      },
    });
    expect(uuidsOf(answer.body)).toEqual(named('tomorrowCardB'));
  });

  it('takes "today" in the simulator\'s time zone, not in UTC', async () => {
    // 23:30 UTC on 10 July is already 11 July in Lisbon (UTC+1 in summer).
    now = Date.UTC(2026, 6, 10, 23, 30);
    try {
      const july11 = sim.world.addOrder({ pickupDate: '2026-07-11' }).uuid;
      const july10 = sim.world.addOrder({ pickupDate: '2026-07-10' }).uuid;
      const listed = uuidsOf((await call(sim, '/orders')).body);
      expect(listed.has(july11)).toBe(true);
      expect(listed.has(july10)).toBe(false);
      sim.world.removeOrder(july11);
      sim.world.removeOrder(july10);
    } finally {
      now = T0;
    }
  });

  it('answers 422 with every invalid field in the errors map', async () => {
    const answer = await call(sim, '/orders', {
      query: {
        status: 'open',
        establishment: 'kitchen',
        start_date: '2026/03/01',
        end_date: '2026-13-01',
        payment_method_type: 'bitcoin',
        page: '0',
      },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      success: false,
      message: 'The selected status is invalid. (and 5 more errors)',
      errors: {
        status: ['The selected status is invalid.'],
        establishment: ['The establishment field must be a valid UUID.'],
        start_date: ['The start date field must match the format Y-m-d.'],
        end_date: ['The end date field must be a valid date.'],
        payment_method_type: ['The selected payment method type is invalid.'],
        page: ['The page field must be at least 1.'],
      },
    });
  });

  it('answers 422 for a start date after the end date, an impossible date, and a page that is no integer', async () => {
    const reversed = await call(sim, '/orders', { query: { start_date: TOMORROW, end_date: TODAY } });
    expect(reversed.status).toBe(422);
    expect(Object.keys(reversed.body.errors)).toEqual(['start_date', 'end_date']);
    const impossible = await call(sim, '/orders', {
      query: { start_date: '2026-02-29', end_date: '2026-03-01' },
    });
    expect(impossible.body.errors).toEqual({ start_date: ['The start date field must be a valid date.'] });
    const page = await call(sim, '/orders', { query: { page: 'two' } });
    expect(page.body.errors).toEqual({ page: ['The page field must be an integer.'] });
  });
});
