// The scenario follows the establishments' hours: today's orders only before a closing, a few late
// cancellations and reschedules after it, and no movement on a day no establishment works.
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/time/calendarDate.js';
import { zonedInstant } from '../../../shared/time/zonedTime.js';
import type { WorldChange } from '../../../simulator/worldChange.js';
import { T0, TODAY, worldFixture } from './worldFixture.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ZONE = 'Europe/Lisbon';

function recorded(fixture: ReturnType<typeof worldFixture>): WorldChange[] {
  const changes: WorldChange[] = [];
  fixture.world.onChange((change) => changes.push(change));
  return changes;
}

function establishmentNamed(fixture: ReturnType<typeof worldFixture>, name: string) {
  const establishment = fixture.world.establishments().find((candidate) => candidate.name === name);
  if (!establishment) throw new Error(`no ${name}`);
  return establishment;
}

describe('Scenario following the establishments’ hours', () => {
  it('takes orders for today only at establishments that have not closed yet, later days at any time', () => {
    // T0 is Tuesday 11:00: only the Café Bar (17:00) still takes today's orders.
    const fixture = worldFixture({ scenario: { orderIntervalMs: 30_000 } });
    const changes = recorded(fixture);
    const cafe = establishmentNamed(fixture, 'Café Bar');
    const cafeClosing = zonedInstant(TODAY, cafe.order_closing_time, ZONE);
    fixture.clock.now = zonedInstant(TODAY, '21:00:00', ZONE);
    fixture.world.listOrders();

    const created = changes.filter((change) => change.kind === 'created');
    const forToday = created.filter((change) => change.pickupDate === TODAY);
    expect(forToday.length).toBeGreaterThan(10);
    for (const change of forToday) {
      expect(change.establishmentUuid).toBe(cafe.uuid);
      expect(change.at).toBeLessThan(cafeClosing);
    }
    const afterClosing = created.filter((change) => change.at > cafeClosing);
    expect(afterClosing.length).toBeGreaterThan(10);
    expect(afterClosing.every((change) => change.pickupDate > TODAY)).toBe(true);
  });

  it('cancels or reschedules a few of the closed day’s pending orders soon after each closing', () => {
    // No ordinary cancellations, so every cancellation seen is a late one.
    const fixture = worldFixture({
      scenario: { cancelRate: 0, lateChangesPerClosing: 4, lateChangeWindowMs: 20 * MINUTE },
    });
    const changes = recorded(fixture);
    const cafe = establishmentNamed(fixture, 'Café Bar');
    const closing = zonedInstant(TODAY, cafe.order_closing_time, ZONE);
    fixture.clock.now = closing + HOUR;
    fixture.world.listOrders();

    const late = changes.filter(
      (change) => change.kind === 'rescheduled' || (change.kind === 'status' && change.to === 'canceled'),
    );
    expect(late).toHaveLength(4);
    for (const change of late) {
      expect(change.at).toBeGreaterThan(closing);
      expect(change.at).toBeLessThanOrEqual(closing + 20 * MINUTE);
      if (change.kind === 'rescheduled') {
        expect(change.from).toBe(`${cafe.uuid}|${TODAY}`);
        expect(change.to).not.toBe(change.from);
        const order = fixture.world.getOrder(change.orderUuid);
        expect(`${order?.establishment.uuid}|${order?.pickup_at}`).toBe(change.to);
      } else {
        expect(change.establishmentUuid).toBe(cafe.uuid);
        expect(change.pickupDate).toBe(TODAY);
      }
    }
    expect(late.some((change) => change.kind === 'rescheduled')).toBe(true);
    expect(late.some((change) => change.kind === 'status')).toBe(true);
  });

  it('stays quiet on a day no establishment works, and moves again the next working day', () => {
    // Saturday 14 March: only the Café Bar works; Sunday the 15th: none does.
    const saturdayNoon = zonedInstant('2026-03-14', '12:00:00', ZONE);
    const fixture = worldFixture({ start: saturdayNoon, scenario: {} });
    const changes = recorded(fixture);
    fixture.clock.now = zonedInstant('2026-03-16', '12:00:00', ZONE);
    fixture.world.listOrders();

    const sundayStart = zonedInstant('2026-03-15', '00:00:00', ZONE);
    const mondayStart = zonedInstant('2026-03-16', '00:00:00', ZONE);
    expect(changes.filter((change) => change.at >= sundayStart && change.at < mondayStart)).toEqual([]);
    expect(changes.filter((change) => change.at < sundayStart).length).toBeGreaterThan(10);
    expect(changes.filter((change) => change.at >= mondayStart).length).toBeGreaterThan(10);
    // Nor is anything ordered for pickup on the closed day.
    const created = changes.filter((change) => change.kind === 'created');
    expect(created.some((change) => change.pickupDate === '2026-03-15')).toBe(false);
  });

  it('replays the same arrivals and late changes from the same seed', () => {
    const run = (seed: number) => {
      const fixture = worldFixture({ seed, scenario: { lateCancelShare: 0 } });
      const changes = recorded(fixture);
      fixture.clock.now = zonedInstant(TODAY, '18:00:00', ZONE);
      fixture.world.listOrders();
      return changes;
    };
    const first = run(5);
    expect(first.some((change) => change.kind === 'rescheduled')).toBe(true);
    expect(run(5)).toEqual(first);
    expect(run(6)).not.toEqual(first);
  });

  it('with closingInSeconds, closes the first establishment that many seconds after the start, even on a closed day', () => {
    // Sunday 15 March, 18:20:30: no establishment works on Sundays in the catalog.
    const start = zonedInstant('2026-03-15', '18:20:30', ZONE);
    const fixture = worldFixture({
      start,
      hours: { closingInSeconds: 60 },
      scenario: { lateChangeWindowMs: MINUTE, lateChangesPerClosing: 2, orderIntervalMs: 5_000 },
    });
    const changes = recorded(fixture);
    const [first, second] = fixture.world.establishments();
    expect(first?.order_closing_time).toBe('18:21:30');
    expect(first?.working_days).toContain(7);
    expect(second?.working_days).not.toContain(7);

    fixture.clock.now = start + 3 * MINUTE;
    fixture.world.listOrders();
    const sunday = '2026-03-15';
    const created = changes.filter((change) => change.kind === 'created' && change.pickupDate === sunday);
    expect(created.length).toBeGreaterThan(0);
    expect(created.every((change) => change.establishmentUuid === first?.uuid)).toBe(true);
    expect(created.every((change) => change.at < start + MINUTE)).toBe(true);
    const late = changes.filter((change) => change.at > start + MINUTE && change.kind !== 'created');
    expect(late.length).toBeGreaterThan(0);
  });
});

describe('World.reschedule', () => {
  it('moves an order to another day and establishment in one change, status kept and updated_at moved on', () => {
    const fixture = worldFixture({ initialOrders: 0 });
    const changes = recorded(fixture);
    const [main, cafe] = fixture.world.establishments();
    const order = fixture.world.addOrder({ establishment: main?.uuid, pickupDate: TODAY });
    fixture.clock.now = T0 + 5 * MINUTE;
    const moved = fixture.world.reschedule(order.uuid, {
      pickupDate: addDays(TODAY, 1),
      establishment: cafe?.uuid,
    });

    expect(moved.pickup_at).toBe(addDays(TODAY, 1));
    expect(moved.establishment).toEqual({ uuid: cafe?.uuid, name: cafe?.name });
    expect(moved.status.value).toBe('pending');
    expect(moved.updated_at > order.updated_at).toBe(true);
    expect(changes.at(-1)).toEqual({
      at: T0 + 5 * MINUTE,
      orderUuid: order.uuid,
      kind: 'rescheduled',
      from: `${main?.uuid}|${TODAY}`,
      to: `${cafe?.uuid}|${addDays(TODAY, 1)}`,
      pickupDate: addDays(TODAY, 1),
      establishmentUuid: cafe?.uuid,
    });
    expect(fixture.world.pendingOrders(cafe?.uuid ?? '', addDays(TODAY, 1)).map((o) => o.uuid)).toEqual([
      order.uuid,
    ]);
    expect(fixture.world.pendingOrders(main?.uuid ?? '', TODAY)).toEqual([]);
  });

  it('records nothing when the order is already there, and refuses an unknown establishment', () => {
    const fixture = worldFixture({ initialOrders: 0 });
    const order = fixture.world.addOrder({ pickupDate: TODAY });
    const changes = recorded(fixture);
    expect(fixture.world.reschedule(order.uuid, { pickupDate: TODAY })).toEqual(order);
    expect(changes).toEqual([]);
    expect(() => fixture.world.reschedule(order.uuid, { establishment: 'nowhere' })).toThrow(
      /no establishment nowhere/,
    );
  });
});
