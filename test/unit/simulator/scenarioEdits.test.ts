// Parents edit pending orders now and then (items, quantities, notes), where a world turns it on: before
// the closing, orders still open to changes; after it, as some of the closing's late changes.
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../shared/api/schemas.js';
import { zonedInstant } from '../../../shared/time/zonedTime.js';
import { resolveScenarioOptions, type ScenarioOptions } from '../../../simulator/scenario.js';
import { microsFromMs, parseTimestamp } from '../../../simulator/timestamps.js';
import type { WorldChange } from '../../../simulator/worldChange.js';
import { totalsProblems } from './orderTotals.js';
import { T0, TODAY, worldFixture } from './worldFixture.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ZONE = 'Europe/Lisbon';
const EDIT_KINDS = new Set<string>(['items', 'notes', 'item_notes']);

interface SeenEdit {
  change: WorldChange;
  /** The order as the edit left it, read as the change was recorded. */
  after: Order;
  /** The order as it was before the edit. */
  before: Order;
}

/** Runs a world with `scenario` until `untilMs`, keeping every change and, for each edit, the order around it. */
function run(scenario: ScenarioOptions, untilMs: number, hours?: { closingInSeconds: number }) {
  const fixture = worldFixture({ scenario, hours });
  const { world } = fixture;
  const latest = new Map(world.listOrders().map((order) => [order.uuid, order]));
  const changes: WorldChange[] = [];
  const edits: SeenEdit[] = [];
  world.onChange((change) => {
    changes.push(change);
    // Read inside the scenario's own step: the world does not advance again from here.
    const after = world.getOrder(change.orderUuid);
    if (!after) return;
    const before = latest.get(change.orderUuid);
    if (EDIT_KINDS.has(change.kind) && before) edits.push({ change, after, before });
    latest.set(change.orderUuid, after);
  });
  fixture.clock.now = untilMs;
  world.viewOrders();
  return { ...fixture, changes, edits };
}

describe('Scenario edits of pending orders', () => {
  it('makes none unless a world turns them on', () => {
    const { changes } = run({}, T0 + 8 * HOUR);
    expect(changes.length).toBeGreaterThan(100);
    expect(changes.filter((change) => EDIT_KINDS.has(change.kind))).toEqual([]);
    expect(resolveScenarioOptions({})).toMatchObject({ editsPerOrder: 0, lateEditShare: 0 });
  });

  it('edits pending orders at about editsPerOrder of the arrival rate, in items, quantities and notes', () => {
    const { changes, edits } = run({ editsPerOrder: 0.25, orderIntervalMs: 30_000 }, T0 + 6 * HOUR);
    const arrivals = changes.filter((change) => change.kind === 'created').length;
    expect(edits.length).toBeGreaterThan(0.15 * arrivals);
    expect(edits.length).toBeLessThan(0.35 * arrivals);
    const kinds = new Set(edits.map((edit) => edit.change.kind));
    expect(kinds).toEqual(EDIT_KINDS);
    const lineCounts = edits
      .filter((edit) => edit.change.kind === 'items')
      .map((edit) => Math.sign(edit.after.items.length - edit.before.items.length));
    // Lines added, removed, and quantities changed on the same lines.
    expect(new Set(lineCounts)).toEqual(new Set([-1, 0, 1]));
  });

  it('only touches pending orders still open to changes: for a later day, or for today before the closing', () => {
    const { edits, world } = run({ editsPerOrder: 0.3, orderIntervalMs: 30_000 }, T0 + 30 * HOUR);
    expect(edits.length).toBeGreaterThan(50);
    const establishments = world.establishments();
    for (const { change, before } of edits) {
      expect(before.status.value).toBe('pending');
      const today = world.calendar.dateAt(change.at);
      expect(change.pickupDate >= today).toBe(true);
      if (change.pickupDate === today) {
        const establishment = establishments.find((candidate) => candidate.uuid === change.establishmentUuid);
        expect(change.at).toBeLessThan(zonedInstant(today, establishment?.order_closing_time ?? '', ZONE));
      }
    }
  });

  it('keeps totals consistent, never leaves an order without items, and bumps updated_at on each edit', () => {
    const { edits, world } = run({ editsPerOrder: 0.5, orderIntervalMs: 20_000 }, T0 + 12 * HOUR);
    expect(edits.length).toBeGreaterThan(100);
    for (const { change, before, after } of edits) {
      expect(totalsProblems(after)).toEqual([]);
      expect(after.items.length).toBeGreaterThan(0);
      expect(after.updated_at > before.updated_at).toBe(true);
      expect(parseTimestamp(after.updated_at)).toBeGreaterThanOrEqual(microsFromMs(change.at));
      expect(after.status.value).toBe('pending');
    }
    for (const order of world.listOrders()) {
      expect(totalsProblems(order)).toEqual([]);
      expect(order.items.length).toBeGreaterThan(0);
    }
  });

  it('records each edit as a world change whose from and to read what changed', () => {
    const { edits } = run({ editsPerOrder: 0.5, orderIntervalMs: 20_000 }, T0 + 6 * HOUR);
    const lines = (order: Order) => order.items.map((item) => `${item.sku}×${item.quantity}`).join(', ');
    for (const { change, before, after } of edits) {
      if (change.kind === 'items') {
        expect(change).toMatchObject({ from: lines(before), to: lines(after) });
        expect(change.from).not.toBe(change.to);
      } else if (change.kind === 'notes') {
        expect(change).toMatchObject({ from: before.notes, to: after.notes });
      } else {
        const item = after.items.find((candidate) => candidate.uuid === change.itemUuid);
        const was = before.items.find((candidate) => candidate.uuid === change.itemUuid);
        expect(change).toMatchObject({ from: was?.notes ?? null, to: item?.notes ?? null });
      }
      expect(change.from).not.toBe(change.to);
      expect(change).toMatchObject({
        pickupDate: after.pickup_at,
        establishmentUuid: after.establishment.uuid,
      });
    }
  });

  it('spaces edits by at most orderGapCap mean gaps, the first one too', () => {
    const options = { editsPerOrder: 0.2, orderIntervalMs: 10_000, orderGapCap: 2, pickupDaysAhead: 3 };
    const { edits } = run(options, T0 + 4 * HOUR);
    const times = [T0, ...edits.map((edit) => edit.change.at)];
    const gaps = times.slice(1).map((at, index) => at - (times[index] ?? T0));
    // Mean gap 10 s / 0.2 = 50 s; an edit finds a pending order open to changes every time here.
    expect(Math.max(...gaps)).toBeLessThanOrEqual(100_000);
  });

  it('replays the same edits from the same seed', () => {
    const once = run({ editsPerOrder: 0.3, lateEditShare: 0.5 }, T0 + 8 * HOUR).changes;
    const again = run({ editsPerOrder: 0.3, lateEditShare: 0.5 }, T0 + 8 * HOUR).changes;
    expect(again).toEqual(once);
    expect(once.some((change) => EDIT_KINDS.has(change.kind))).toBe(true);
  });

  it('refuses a negative rate and a share outside 0 to 1', () => {
    expect(() => resolveScenarioOptions({ editsPerOrder: -1 })).toThrow(/editsPerOrder/);
    expect(() => resolveScenarioOptions({ editsPerOrder: Number.NaN })).toThrow(/editsPerOrder/);
    expect(() => resolveScenarioOptions({ lateEditShare: 1.5 })).toThrow(/lateEditShare/);
  });
});

describe('Scenario late edits after a closing', () => {
  // The first establishment closes ten minutes after T0 (Tuesday 11:00), so a closing falls in the run.
  const closing = T0 + 10 * MINUTE;
  const hours = { closingInSeconds: 600 };
  const window = 20 * MINUTE;

  function late(scenario: ScenarioOptions) {
    const result = run(
      { lateChangesPerClosing: 4, lateChangeWindowMs: window, orderIntervalMs: 20_000, ...scenario },
      closing + HOUR,
      hours,
    );
    const [kitchen] = result.world.establishments();
    const ofClosing = (change: WorldChange) =>
      change.at > closing &&
      change.at <= closing + window &&
      change.pickupDate === TODAY &&
      (change.establishmentUuid === kitchen?.uuid || change.kind === 'rescheduled');
    return { ...result, kitchen, ofClosing };
  }

  it("edits lateEditShare of each closing's late changes, on the day's pending orders, the first one's lines, after the window's first quarter", () => {
    const { edits, changes, kitchen, ofClosing } = late({ lateEditShare: 0.5, cancelRate: 0 });
    const lateEdits = edits.filter((edit) => ofClosing(edit.change) && edit.change.pickupDate === TODAY);
    expect(lateEdits).toHaveLength(2);
    expect(new Set(lateEdits.map((edit) => edit.change.orderUuid)).size).toBe(2);
    for (const { change, before } of lateEdits) {
      expect(change.establishmentUuid).toBe(kitchen?.uuid);
      expect(before.status.value).toBe('pending');
      expect(change.at).toBeGreaterThanOrEqual(closing + window / 4);
    }
    expect(lateEdits.map((edit) => edit.change.kind)).toContain('items');
    // The other two late changes are cancellations or reschedules, as before.
    const others = changes.filter(
      (change) => ofClosing(change) && (change.kind === 'rescheduled' || change.to === 'canceled'),
    );
    expect(others.length).toBeLessThanOrEqual(2);
  });

  it('makes at least one late edit per closing at any share above 0', () => {
    const { edits, ofClosing } = late({ lateEditShare: 0.01 });
    expect(edits.filter((edit) => ofClosing(edit.change))).toHaveLength(1);
  });

  it("keeps a late edit's order pending until its edit, however soon orders are picked up, then resolves it", () => {
    // Orders are picked up 2 to 6 minutes after they are placed; the edits come 5 to 20 minutes after
    // the closing, when most of the day's would be gone without the hold.
    const { edits, changes, ofClosing } = late({
      lateEditShare: 0.5,
      resolveAfterMs: 4 * MINUTE,
      orderIntervalMs: 10_000,
    });
    const lateEdits = edits.filter((edit) => ofClosing(edit.change));
    expect(lateEdits).toHaveLength(2);
    for (const { change, after } of lateEdits) {
      expect(after.status.value).toBe('pending');
      const resolved = changes.find(
        (candidate) =>
          candidate.orderUuid === change.orderUuid &&
          candidate.kind === 'status' &&
          candidate.from === 'pending',
      );
      expect(resolved?.at).toBeGreaterThan(change.at);
    }
  });

  it("keeps one of today's pending orders per establishment until the closing, so there is one to edit even when the rest were picked up", () => {
    // Orders are picked up 30 to 90 s after they are placed, and few arrive: at the closing, the
    // establishment would have none pending left.
    const quick = { resolveAfterMs: MINUTE, orderIntervalMs: 5 * MINUTE };
    const without = late({ ...quick, lateEditShare: 0 });
    const pendingAtClosing = without.changes.filter(
      (change) => change.kind === 'status' && change.from === 'pending' && change.at > closing,
    );
    expect(pendingAtClosing.filter((change) => without.ofClosing(change))).toEqual([]);

    const { edits, changes, ofClosing } = late({ ...quick, lateEditShare: 0.5 });
    const lateEdits = edits.filter((edit) => ofClosing(edit.change));
    expect(lateEdits).toHaveLength(1);
    const [edit] = lateEdits;
    if (!edit) throw new Error('no late edit');
    expect(edit.change.kind).toBe('items');
    expect(parseTimestamp(edit.before.created_at)).toBeLessThan(microsFromMs(closing));
    const resolved = changes.find(
      (change) => change.orderUuid === edit.change.orderUuid && change.kind === 'status',
    );
    expect(resolved?.at).toBeGreaterThan(edit.change.at);
  });

  it('with lateEditShare 0, late changes stay cancellations and reschedules', () => {
    const { edits, changes, ofClosing } = late({ lateEditShare: 0, cancelRate: 0 });
    expect(edits).toEqual([]);
    expect(changes.filter((change) => ofClosing(change) && change.kind !== 'created').length).toBeGreaterThan(
      0,
    );
  });
});
