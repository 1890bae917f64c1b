// What a newcomer sees in the first two minutes: `npm start` runs the `demo` world at its own pace (an
// order every ~2.5 s, the kitchen closing 60 s after the start, late changes within 30 s of that), and
// `meal-notifier simulate` runs the same world at the CLI's speed. In both, parents edit pending orders
// within the first two minutes, and in `npm start` one of the closed day's pending orders is edited after
// the closing too, whatever the seed and the hour. Virtual time: the world is stepped, nothing sleeps.
import { afterEach, describe, expect, it } from 'vitest';
import { demoSimulatorOptions } from '../../../cli/demo/demoSetup.js';
import { zonedInstant } from '../../../shared/time/zonedTime.js';
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../simulator/startSimulator.js';
import type { WorldChange } from '../../../simulator/worldChange.js';
import { WORLD_PRESETS } from '../../../simulator/worldPresets.js';

const TWO_MINUTES = 120_000;
const EDIT_KINDS = new Set<string>(['items', 'notes', 'item_notes']);
const running: RunningSimulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
});

/** Starts the simulator at `start` on a virtual clock, steps it through two minutes and returns its changes. */
async function firstTwoMinutes(options: SimulatorOptions, start: number) {
  let now = start;
  const sim = await startSimulator({ ...options, clock: () => now });
  running.push(sim);
  const changes: WorldChange[] = [];
  const pendingBefore = new Set<string>();
  sim.world.onChange((change) => {
    if (EDIT_KINDS.has(change.kind) && sim.world.statusOf(change.orderUuid) === 'pending') {
      pendingBefore.add(`${change.orderUuid}@${change.at}`);
    }
    changes.push(change);
  });
  // As a runner polling every 3 s would read it.
  for (now = start; now <= start + TWO_MINUTES; now += 3_000) sim.world.viewOrders();
  const edits = changes.filter((change) => EDIT_KINDS.has(change.kind));
  return { sim, changes, edits, pendingBefore };
}

// Mornings, afternoons and evenings in winter and summer time.
const STARTS = [
  Date.UTC(2026, 2, 10, 9, 0, 7),
  Date.UTC(2026, 5, 13, 15, 12, 31),
  Date.UTC(2026, 10, 1, 21, 40, 2),
];

describe('npm start (the demo world at its own pace)', () => {
  it.each([42, 1, 2, 3, 7, 11, 99, 1234])(
    'with seed %i, parents edit pending orders before the kitchen closes and one of its pending orders after, within two minutes',
    async (seed) => {
      for (const start of STARTS) {
        const { sim, edits, changes } = await firstTwoMinutes(demoSimulatorOptions(seed), start);
        const [kitchen] = sim.world.establishments();
        if (!kitchen) throw new Error('the demo has no establishment');
        const closing = start + 60_000;
        const closedDay = sim.world.calendar.dateAt(closing);
        // The kitchen's closing passes a minute in: the prep summary's moment.
        expect(zonedInstant(closedDay, kitchen.order_closing_time, sim.world.timeZone)).toBe(closing);
        expect(edits.some((change) => change.at < closing)).toBe(true);
        const afterClosing = edits.filter(
          (change) =>
            change.at > closing &&
            change.establishmentUuid === kitchen.uuid &&
            change.pickupDate === closedDay,
        );
        expect(afterClosing.length).toBeGreaterThanOrEqual(1);
        // The first after-closing edit changes the lines, which the kitchen's counts follow, at least
        // 7.5 s after the closing: after the summary of a runner polling every few seconds.
        expect(afterClosing[0]?.kind).toBe('items');
        expect(afterClosing[0]?.at).toBeGreaterThanOrEqual(closing + 7_500);
        // Orders carry notes, and some of them name an allergy.
        const notes = sim.world
          .viewOrders()
          .flatMap((order) => [order.notes, ...order.items.map((item) => item.notes)])
          .filter((note): note is string => note !== null);
        expect(notes.length).toBeGreaterThan(0);
        expect(changes.length).toBeGreaterThan(edits.length);
        await Promise.all(running.splice(0).map((sim) => sim.close()));
      }
    },
  );

  it('edits only orders that were pending', async () => {
    const { edits, pendingBefore } = await firstTwoMinutes(demoSimulatorOptions(42), STARTS[0] ?? 0);
    expect(edits.length).toBeGreaterThan(2);
    for (const change of edits) expect(pendingBefore.has(`${change.orderUuid}@${change.at}`)).toBe(true);
  });
});

describe('meal-notifier simulate (the demo world at the CLI speed)', () => {
  it.each([42, 7, 1234])('with seed %i, parents edit pending orders within two minutes', async (seed) => {
    for (const start of STARTS) {
      const { edits } = await firstTwoMinutes(
        { world: 'demo', seed, scenario: { speed: WORLD_PRESETS.demo.cliSpeed } },
        start,
      );
      expect(edits.length).toBeGreaterThanOrEqual(1);
      await Promise.all(running.splice(0).map((sim) => sim.close()));
    }
  });
});
