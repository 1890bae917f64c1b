// Admin API client figures: record parsing throughput, and the requests and time a full walk of a
// 1,000-order listing takes against the simulator.
import { AdminApiClient } from '../shared/api/adminApiClient.js';
import { parseListPage } from '../shared/api/listPage.js';
import { OrderSchema } from '../shared/api/schemas.js';
import { startSimulator } from '../simulator/startSimulator.js';

export async function benchApiClient(): Promise<Record<string, number>> {
  const sim = await startSimulator({
    seed: 3,
    scenario: false,
    initialOrders: 0,
    requestsPerMinute: 1_000_000,
  });
  try {
    const today = sim.world.today();
    for (let i = 0; i < 1_000; i += 1) sim.world.addOrder({ pickupDate: today });
    const raw = sim.world.listOrders();

    const pages = 400;
    const started = performance.now();
    for (let page = 0; page < pages; page += 1) {
      const result = parseListPage(raw.slice((page * 25) % 975, ((page * 25) % 975) + 25), OrderSchema);
      if (!result.ok || result.page.records.length !== 25) throw new Error('bench fixture failed to parse');
    }
    const parseOrdersPerSec = Math.round((pages * 25) / ((performance.now() - started) / 1000));

    const client = new AdminApiClient({
      baseUrl: sim.baseUrl,
      organizationId: sim.organization.id,
      token: sim.token,
    });
    const walkStarted = performance.now();
    const listing = await client.listOrders({ status: 'pending', startDate: today, endDate: today });
    const walkMs = Math.round(performance.now() - walkStarted);
    await client.close();
    if (listing.records.length !== 1_000)
      throw new Error(`walk listed ${listing.records.length} of 1000 orders`);
    return {
      parse_orders_per_sec: parseOrdersPerSec,
      list_1000_orders_requests: client.requestCount,
      list_1000_orders_ms: walkMs,
    };
  } finally {
    await sim.close();
  }
}
