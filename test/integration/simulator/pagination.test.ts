import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListEnvelopeSchema } from '../../../shared/api/envelope.js';
import { addDays } from '../../../shared/time/calendarDate.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { call, callUrl, T0, TODAY } from './simulatorHttp.js';

let sim: RunningSimulator;
const TOMORROW = addDays(TODAY, 1);

beforeAll(async () => {
  sim = await startSimulator({ clock: () => T0, scenario: false, initialOrders: 0, requestsPerMinute: 1000 });
  for (let i = 0; i < 60; i += 1) {
    sim.world.addOrder({
      status: i % 10 === 0 ? 'completed' : 'canceled',
      pickupDate: i % 2 === 0 ? TODAY : TOMORROW,
      paymentMethod: i % 3 === 0 ? 'cash' : 'card',
      createdAtMs: T0 - (60 - i) * 60_000,
    });
  }
});
afterAll(() => sim.close());

describe('GET /orders pagination', () => {
  it('walks a whole filtered listing by following links.next, keeping the filters on every link', async () => {
    const query = { status: 'canceled', start_date: TODAY, end_date: TOMORROW, payment_method_type: 'card' };
    const expected = sim.world
      .listOrders()
      .filter((order) => order.status.value === 'canceled' && order.payment_method_type.value === 'card')
      .map((order) => order.uuid);
    expect(expected.length).toBeGreaterThan(25);

    const seen: string[] = [];
    let answer = await call(sim, '/orders', { query });
    let pages = 1;
    for (;;) {
      const envelope = ListEnvelopeSchema.parse(answer.body);
      seen.push(...envelope.data.map((order) => (order as { uuid: string }).uuid));
      expect(envelope.meta).toMatchObject({ current_page: pages, per_page: 25, total: expected.length });
      for (const link of [
        envelope.links?.first,
        envelope.links?.last,
        envelope.links?.next,
        envelope.links?.prev,
      ]) {
        if (!link) continue;
        const url = new URL(link);
        expect(url.origin + url.pathname).toBe(`${sim.baseUrl}/orders`);
        for (const [name, value] of Object.entries(query)) expect(url.searchParams.get(name)).toBe(value);
      }
      if (!envelope.links?.next) break;
      answer = await callUrl(sim, envelope.links.next);
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(expected.length / 25));
    expect(seen).toEqual(expected);
  });

  it('describes each page in meta and links, Laravel style', async () => {
    const query = { status: 'canceled', start_date: TODAY, end_date: TOMORROW };
    const total = sim.world.listOrders().filter((order) => order.status.value === 'canceled').length;
    const second = await call(sim, '/orders', { query: { ...query, page: '2' } });
    const path = `${sim.baseUrl}/orders`;
    const url = (page: number) =>
      `${path}?status=canceled&start_date=${TODAY}&end_date=${TOMORROW}&page=${page}`;
    expect(second.body.meta).toMatchObject({
      current_page: 2,
      from: 26,
      to: Math.min(50, total),
      last_page: Math.ceil(total / 25),
      per_page: 25,
      total,
      path,
    });
    expect(second.body.links).toEqual({ first: url(1), last: url(3), prev: url(1), next: url(3) });
    expect(second.body.meta.links.map((button: { label: string }) => button.label)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '3',
      'Next &raquo;',
    ]);
  });

  it('answers a page beyond the last with an empty data array and null from and to', async () => {
    const answer = await call(sim, '/orders', { query: { status: 'completed', page: '9' } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 1 });
    expect(answer.body.links.next).toBeNull();
  });

  it('gives an empty listing one last page', async () => {
    const answer = await call(sim, '/orders', { query: { status: 'archived' } });
    expect(answer.body.data).toEqual([]);
    expect(answer.body.meta).toMatchObject({ total: 0, last_page: 1, from: null, to: null });
    expect(answer.body.links.prev).toBeNull();
    expect(answer.body.links.next).toBeNull();
  });

  it('orders the listing stably by pickup date, creation time and uuid', async () => {
    const query = { status: 'canceled', start_date: TODAY, end_date: TOMORROW };
    const first = await call(sim, '/orders', { query });
    const again = await call(sim, '/orders', { query });
    const keys = (body: { data: Array<{ uuid: string; created_at: string }> }) =>
      body.data.map((order) => order.uuid);
    expect(keys(again.body)).toEqual(keys(first.body));
    const listed = sim.world.listOrders().filter((order) => order.status.value === 'canceled');
    expect(keys(first.body)).toEqual(listed.slice(0, 25).map((order) => order.uuid));
    const dates = listed.map((order) => order.pickup_at);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates)).toEqual(new Set([TODAY, TOMORROW]));
  });
});
