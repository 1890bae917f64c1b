// The benchmarks' worlds must replay exactly as they did before parents could edit pending orders: their
// published figures rest on the seeded sequence of orders and changes. Each trace below is a digest of
// every world change and every order a preset world holds after hours of its scenario, captured from the
// code before the edits existed. Note texts are read as "a note or none": which notes an order draws is
// the seeded sequence, their wording is the catalog's and was rewritten on purpose.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../shared/api/schemas.js';
import type { ScenarioOptions } from '../../../simulator/scenario.js';
import { SeededRandom } from '../../../simulator/seededRandom.js';
import { createSimulatedOrganization } from '../../../simulator/simulatedOrganization.js';
import type { WorldChange } from '../../../simulator/worldChange.js';
import { type WorldName, worldPreset } from '../../../simulator/worldPresets.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Tuesday 10 March 2026 in Lisbon (UTC+0): 08:00, before the morning's closings, and 14:00, the benchmarks' start. */
const MORNING = Date.UTC(2026, 2, 10, 8, 0, 0);
const AFTERNOON = Date.UTC(2026, 2, 10, 14, 0, 0);

interface Trace {
  changes: number;
  orders: number;
  digest: string;
}

/**
 * Builds organization `index` of a preset world as `startSimulator` does, and runs its scenario (the
 * world's own, or `scenario` over it) for `hours`.
 */
function trace(
  name: WorldName,
  seed: number,
  index: number,
  start: number,
  hours: number,
  scenario: ScenarioOptions = {},
): Trace {
  const preset = worldPreset(name);
  const clock = { now: start };
  const changes: WorldChange[] = [];
  const organization = createSimulatedOrganization({
    organization: { id: `org-${index}`, name: preset.organizations[index]?.name ?? 'School' },
    rng: new SeededRandom(seed).fork(`organization/${index}/data`),
    clock: () => clock.now,
    timeZone: preset.notifier.timeZone,
    establishments: preset.establishments,
    schedules: preset.schedules,
    initialOrders: preset.initialOrders,
    scenario: { ...preset.scenario, ...scenario },
  });
  const { world } = organization;
  world.onChange((change) => changes.push({ ...change }));
  for (let t = start; t <= start + hours * HOUR; t += 5 * MINUTE) {
    clock.now = t;
    world.viewOrders();
  }
  const orders = world.listOrders().map(withNotesAsPresence);
  const hash = createHash('sha256');
  hash.update(JSON.stringify(changes));
  hash.update(JSON.stringify(orders));
  return { changes: changes.length, orders: orders.length, digest: hash.digest('hex').slice(0, 16) };
}

function withNotesAsPresence(order: Order): Order {
  const present = (notes: string | null) => (notes === null ? null : 'note');
  return {
    ...order,
    notes: present(order.notes),
    items: order.items.map((item) => ({ ...item, notes: present(item.notes) })),
  };
}

describe('Preset worlds other than the demo', () => {
  it('replay the canteen afternoon exactly as before, closings and late changes included', () => {
    // 657 created, 1,112 status and 3 rescheduled changes: the three closings fall in these four hours.
    expect(trace('canteen-afternoon', 11, 0, MORNING, 4)).toEqual({
      changes: 1772,
      orders: 3557,
      digest: '7cde27d4f87befed',
    });
    expect(trace('canteen-afternoon', 11, 0, AFTERNOON, 4)).toEqual({
      changes: 1770,
      orders: 3557,
      digest: '204ddd44cd98ea13',
    });
    // Two four-hour replays of a 2,900-order world, all computing: a few seconds of CPU, 39 s seen with what
    // two CPU-bound processes and the system tests leave to it.
  }, 120_000);

  it('replay the shared-token schools exactly as before', () => {
    expect(trace('shared-token', 11, 0, MORNING, 4)).toEqual({
      changes: 294,
      orders: 209,
      digest: '4952b3c5ce3c9bf4',
    });
    expect(trace('shared-token', 11, 1, AFTERNOON, 4)).toEqual({
      changes: 326,
      orders: 232,
      digest: '56734383b2279aab',
    });
  });

  it('make no edits: the edits are off unless a world turns them on', () => {
    for (const name of ['canteen-afternoon', 'shared-token'] as const) {
      expect(worldPreset(name).scenario.editsPerOrder ?? 0).toBe(0);
      expect(worldPreset(name).scenario.lateEditShare ?? 0).toBe(0);
    }
  });
});

describe('The demo world with its edits turned off', () => {
  // Captured, as above, before the edits existed: what the demo did then, it does still, less the edits.
  const off: ScenarioOptions = { editsPerOrder: 0, lateEditShare: 0 };

  it('replays exactly as before', () => {
    expect(trace('demo', 42, 0, MORNING, 4, off)).toEqual({
      changes: 785,
      orders: 337,
      digest: 'e7d0d074abca6d16',
    });
    expect(trace('demo', 7, 1, AFTERNOON, 2, off)).toEqual({
      changes: 355,
      orders: 190,
      digest: 'e48e127e88c34224',
    });
  });
});
