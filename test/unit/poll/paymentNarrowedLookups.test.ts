// Look-ups narrowed by payment method, through the whole cycle on the in-memory fakes: an order that left
// pending is looked for among the orders paid as it was last seen, and one whose payment method changed as
// it completed is still announced completed, once, from the listing of every payment method; one deleted
// is marked missing only after those listings too were walked whole.
import { describe, expect, it } from 'vitest';
import { pollOrganization } from '../../../shared/poll/pollOrganization.js';
import { cycleFixture, MINUTE, T0, TODAY } from '../../support/cycleFixture.js';
import { ESTABLISHMENT_UUID, makeOrder } from '../../support/orderFactory.js';

const completed = { label: 'Completed', value: 'completed' };
const cash = { label: 'Cash', value: 'cash' };

/** A world with one pending order paid by card among many completed ones paid in cash; its first cycle run. */
async function worldAfterFirstCycle() {
  const order = makeOrder({ pickup_at: TODAY });
  const paidInCash = Array.from({ length: 60 }, () =>
    makeOrder({ pickup_at: TODAY, status: completed, payment_method_type: cash }),
  );
  const fixture = await cycleFixture({ orders: [order, ...paidInCash] });
  const cycle = () => pollOrganization(fixture.organization, fixture.context.deps);
  const first = await cycle();
  expect(first.ok).toBe(true);
  return { ...fixture, order, cycle };
}

const lookups = (report: Awaited<ReturnType<typeof pollOrganization>>) =>
  report.listings.filter((listing) => listing.purpose === 'resolve').map((listing) => listing.key);

describe('a look-up of an order that left pending, narrowed by its payment method', () => {
  it('finds a completed order among those paid the same way, in one request', async () => {
    const { order, source, cycle } = await worldAfterFirstCycle();
    source.setStatus(order.uuid, 'completed', T0 - MINUTE);
    const report = await cycle();
    expect(lookups(report)).toEqual([`completed:${TODAY}@${ESTABLISHMENT_UUID}/card`]);
    expect(report.events.map((event) => [event.type, event.subject])).toEqual([
      ['order.completed', order.uuid],
    ]);
  });

  it('announces completed, once, an order whose payment method changed as it completed', async () => {
    const { order, source, cycle } = await worldAfterFirstCycle();
    source.setStatus(order.uuid, 'completed', T0 - MINUTE);
    source.updateOrder(order.uuid, { payment_method_type: cash });
    const report = await cycle();
    expect(lookups(report)).toEqual([
      `completed:${TODAY}@${ESTABLISHMENT_UUID}/card`,
      `canceled:${TODAY}@${ESTABLISHMENT_UUID}/card`,
      `archived:${TODAY}@${ESTABLISHMENT_UUID}/card`,
      `completed:${TODAY}@${ESTABLISHMENT_UUID}`,
    ]);
    expect(report.events.map((event) => [event.type, event.subject])).toEqual([
      ['order.completed', order.uuid],
    ]);
    expect((await cycle()).events).toEqual([]);
  });
});
