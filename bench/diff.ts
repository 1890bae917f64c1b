// diffOrder throughput on 100,000 orders parsed beforehand: most unchanged against their snapshot, some moved on, a few new or reappearing.
import { type Order, type OrderInput, OrderSchema, type OrderStatus } from '../shared/api/schemas.js';
import { type DiffContext, diffOrder } from '../shared/detect/diffOrder.js';
import { observedState, type Snapshot } from '../shared/detect/snapshot.js';
import { addDays } from '../shared/time/calendarDate.js';
import { startSimulator } from '../simulator/startSimulator.js';
import { T0 } from './support/pollFixture.js';

const ORDERS = 100_000;
const TEMPLATES = 500;
const TIMED_PASSES = 5;

/** What each slot of 100 orders is, against its snapshot. */
type Kind = 'unchanged' | 'moved' | 'new' | 'reappeared';
function kindOf(index: number): Kind {
  const slot = index % 100;
  if (slot < 94) return 'unchanged';
  if (slot < 98) return 'moved';
  if (slot < 99) return 'new';
  return 'reappeared';
}

export async function benchDiff(): Promise<Record<string, number>> {
  const templates = await templateOrders();
  const raw: OrderInput[] = [];
  for (let index = 0; index < ORDERS; index += 1) {
    const template = templates[index % templates.length];
    if (!template) throw new Error('no template orders');
    // Every other order in the API's short date form: parsing normalizes it, so the diff never sees it.
    const pickup = template.pickup_at;
    raw.push({
      ...structuredClone(template),
      uuid: syntheticUuid(index),
      reference: `BS-${100_000 + index}`,
      pickup_at:
        index % 2 === 0 ? pickup : `${pickup.slice(8, 10)}/${pickup.slice(5, 7)}/${pickup.slice(2, 4)}`,
    });
  }
  const orders: Order[] = raw.map((order) => OrderSchema.parse(order));
  raw.length = 0;

  const expiresAt = T0 + 10 * 86_400_000;
  const snapshots = new Map<string, Snapshot>();
  let expectedWrites = 0;
  let expectedEvents = 0;
  for (const [index, order] of orders.entries()) {
    const kind = kindOf(index);
    const base: Snapshot = { ...observedState(order), missingSince: null, version: 3, expiresAt };
    if (kind === 'unchanged') snapshots.set(order.uuid, base);
    else if (kind === 'reappeared') {
      snapshots.set(order.uuid, { ...base, missingSince: new Date(T0 - 3_600_000).toISOString() });
      expectedWrites += 1;
    } else if (kind === 'new') {
      // Announced as created, plus the step it already took when it is not pending any more.
      expectedWrites += 1;
      expectedEvents += 1 + statusEvents(undefined, order);
    } else if (order.status.value === 'pending') {
      // A pending order whose pickup date moved: a write and an order.rescheduled.
      snapshots.set(order.uuid, { ...base, pickupDate: addDays(order.pickup_at, -1) });
      expectedWrites += 1;
      expectedEvents += 1;
    } else {
      // An order that was pending last cycle and has moved on since.
      snapshots.set(order.uuid, { ...base, status: 'pending', completedAt: null, canceledAt: null });
      expectedWrites += 1;
      expectedEvents += statusEvents('pending', order);
    }
  }

  const context: DiffContext = {
    organization: { id: '5b0f7c1e-8a7b-4d3c-9e2f-1a2b3c4d5e6f', name: 'Bench School' },
    source: 'https://example.test/api/v1/admin/organizations/5b0f7c1e-8a7b-4d3c-9e2f-1a2b3c4d5e6f',
    detectedAt: new Date(T0).toISOString(),
    baseline: false,
    expiresAt,
    summarySent: () => false,
  };
  const pass = (): { writes: number; events: number } => {
    let writes = 0;
    let events = 0;
    for (const order of orders) {
      const diff = diffOrder(snapshots.get(order.uuid), order, context);
      if (diff.snapshot) writes += 1;
      events += diff.events.length;
    }
    return { writes, events };
  };

  pass(); // warm-up: let the JIT settle before timing
  const rates: number[] = [];
  for (let i = 0; i < TIMED_PASSES; i += 1) {
    const started = performance.now();
    const { writes, events } = pass();
    const seconds = (performance.now() - started) / 1000;
    if (writes !== expectedWrites || events !== expectedEvents) {
      throw new Error(
        `diff found ${writes} writes and ${events} events, expected ${expectedWrites} and ${expectedEvents}`,
      );
    }
    rates.push(ORDERS / seconds);
  }
  rates.sort((a, b) => a - b);
  return {
    diff_orders_per_sec: Math.round(rates[Math.floor(rates.length / 2)] ?? 0),
    diff_changed_share_pct: Math.round((expectedWrites / ORDERS) * 1000) / 10,
    diff_events_per_100k: expectedEvents,
  };
}

/** Events a status move from `before` to the order's status makes (the diff engine's rules, counted). */
function statusEvents(before: string | undefined, order: Order): number {
  const status = order.status.value as OrderStatus;
  if (before === status || (before === undefined && status === 'pending')) return 0;
  if (status !== 'archived') return 1;
  return (
    1 +
    (order.completed_at && before !== 'completed' ? 1 : 0) +
    (order.canceled_at && before !== 'canceled' ? 1 : 0)
  );
}

/** Orders as the simulator makes them, in every status over the week, to copy from. */
async function templateOrders(): Promise<OrderInput[]> {
  const sim = await startSimulator({ seed: 11, scenario: false, initialOrders: 0, clock: () => T0 });
  try {
    const statuses: OrderStatus[] = ['pending', 'pending', 'pending', 'completed', 'completed', 'canceled'];
    for (let i = 0; i < TEMPLATES; i += 1) {
      const pickupDate = addDays(sim.world.today(), i % 8);
      if (i % 10 === 9) {
        const order = sim.world.addOrder({ status: i % 20 === 9 ? 'completed' : 'canceled', pickupDate });
        sim.world.setStatus(order.uuid, 'archived');
      } else sim.world.addOrder({ status: statuses[i % statuses.length] ?? 'pending', pickupDate });
    }
    return sim.world.listOrders();
  } finally {
    await sim.close();
  }
}

function syntheticUuid(index: number): string {
  return `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
}
