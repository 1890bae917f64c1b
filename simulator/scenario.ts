// Makes the world move on its own: new orders arrive and pending ones are completed or canceled, then
// archived, after seeded delays. Events wait in a time-ordered queue and are applied lazily by
// `advanceTo`, so the cost is one step per event however far the clock jumps, and the same seed and
// clock readings always give the same world.
import type { OrderStatus } from '../shared/api/schemas.js';
import { addDays } from '../shared/time/calendarDate.js';
import { EventQueue } from './eventQueue.js';
import type { SeededRandom } from './seededRandom.js';
import type { World } from './world.js';

export interface ScenarioOptions {
  /** Divides every delay: 10 runs the world ten times faster. Default 1. */
  speed?: number;
  /** Mean gap between new orders at speed 1. Default 60 s. */
  orderIntervalMs?: number;
  /** Typical time an order stays pending at speed 1 (each wait is 0.5 to 1.5 times this). Default 20 min. */
  resolveAfterMs?: number;
  /** Typical time from completed or canceled to archived at speed 1 (0.5 to 1.5 times). Default 60 min. */
  archiveAfterMs?: number;
  /** Share of pending orders that end canceled rather than completed. Default 0.2. */
  cancelRate?: number;
  /** New orders are for pickup today up to this many days ahead. Default 3. */
  pickupDaysAhead?: number;
}

export type ResolvedScenarioOptions = Required<ScenarioOptions>;

export const DEFAULT_SCENARIO: ResolvedScenarioOptions = {
  speed: 1,
  orderIntervalMs: 60_000,
  resolveAfterMs: 20 * 60_000,
  archiveAfterMs: 60 * 60_000,
  cancelRate: 0.2,
  pickupDaysAhead: 3,
};

type ScenarioEvent =
  | { kind: 'arrival' }
  | { kind: 'transition'; orderUuid: string; from: OrderStatus; to: OrderStatus };

export class Scenario {
  readonly enabled: boolean;
  readonly options: Readonly<ResolvedScenarioOptions>;
  private readonly queue = new EventQueue<ScenarioEvent>();
  private advancedTo: number;
  private advancing = false;
  private appliedEvents = 0;

  /** `options: false` gives a scenario that never changes anything. */
  constructor(
    private readonly world: World,
    private readonly rng: SeededRandom,
    options: ScenarioOptions | false,
    startMs: number,
  ) {
    this.enabled = options !== false;
    this.options = resolveScenarioOptions(options === false ? {} : options);
    this.advancedTo = startMs;
    if (!this.enabled) return;
    for (const order of world.listOrders()) {
      const status = order.status.value;
      if (status === 'pending') this.scheduleResolution(order.uuid, startMs);
      else if (status === 'completed' || status === 'canceled') {
        // Already resolved for a while: archive somewhere within one typical wait from now.
        this.queue.push(startMs + this.scaled(this.rng.between(0, this.options.archiveAfterMs)), {
          kind: 'transition',
          orderUuid: order.uuid,
          from: status,
          to: 'archived',
        });
      }
    }
    this.scheduleArrival(startMs);
    world.setSynchronizer(() => this.advanceTo(world.now()));
  }

  /** Applies every event due at or before `nowMs`; returns how many changed the world. */
  advanceTo(nowMs: number): number {
    // The world calls back here before each change; the scenario's own changes must not recurse.
    if (!this.enabled || this.advancing) return 0;
    this.advancing = true;
    let applied = 0;
    try {
      for (let due = this.queue.popDue(nowMs); due; due = this.queue.popDue(nowMs)) {
        if (this.apply(due.at, due.event)) applied += 1;
      }
      this.advancedTo = Math.max(this.advancedTo, nowMs);
    } finally {
      this.advancing = false;
    }
    this.appliedEvents += applied;
    return applied;
  }

  /** The latest time the world has been brought up to. */
  get time(): number {
    return this.advancedTo;
  }

  /** When the next event is due, if any. */
  nextEventAt(): number | undefined {
    return this.queue.peekTime();
  }

  get pendingEvents(): number {
    return this.queue.size;
  }

  /** Events applied so far (a transition skipped because a test moved the order first does not count). */
  get appliedCount(): number {
    return this.appliedEvents;
  }

  private apply(at: number, event: ScenarioEvent): boolean {
    if (event.kind === 'arrival') {
      const daysAhead = this.rng.chance(0.5) ? 0 : this.rng.int(1, Math.max(1, this.options.pickupDaysAhead));
      const pickupDate = addDays(
        this.world.calendar.dateAt(at),
        Math.min(daysAhead, this.options.pickupDaysAhead),
      );
      const order = this.world.addOrder({ createdAtMs: at, pickupDate });
      this.scheduleResolution(order.uuid, at);
      this.scheduleArrival(at);
      return true;
    }
    // A test may have moved or removed the order meanwhile; its word wins over the script.
    if (this.world.statusOf(event.orderUuid) !== event.from) return false;
    this.world.setStatus(event.orderUuid, event.to, { atMs: at });
    if (event.to === 'completed' || event.to === 'canceled') {
      this.queue.push(at + this.scaled(this.aroundTypical(this.options.archiveAfterMs)), {
        kind: 'transition',
        orderUuid: event.orderUuid,
        from: event.to,
        to: 'archived',
      });
    }
    return true;
  }

  private scheduleArrival(afterMs: number): void {
    // Capped so that one unlucky draw cannot leave the demo silent for long.
    const gap = Math.min(
      this.rng.exponential(this.options.orderIntervalMs),
      5 * this.options.orderIntervalMs,
    );
    this.queue.push(afterMs + this.scaled(gap), { kind: 'arrival' });
  }

  private scheduleResolution(orderUuid: string, afterMs: number): void {
    const to: OrderStatus = this.rng.chance(this.options.cancelRate) ? 'canceled' : 'completed';
    this.queue.push(afterMs + this.scaled(this.aroundTypical(this.options.resolveAfterMs)), {
      kind: 'transition',
      orderUuid,
      from: 'pending',
      to,
    });
  }

  private aroundTypical(typicalMs: number): number {
    return this.rng.between(0.5, 1.5) * typicalMs;
  }

  private scaled(ms: number): number {
    return Math.max(1, Math.round(ms / this.options.speed));
  }
}

export function resolveScenarioOptions(options: ScenarioOptions): ResolvedScenarioOptions {
  const resolved = { ...DEFAULT_SCENARIO, ...definedOnly(options) };
  for (const key of ['speed', 'orderIntervalMs', 'resolveAfterMs', 'archiveAfterMs'] as const) {
    if (!(Number.isFinite(resolved[key]) && resolved[key] > 0)) {
      throw new RangeError(`scenario ${key} must be a positive number, got ${resolved[key]}`);
    }
  }
  if (!(resolved.cancelRate >= 0 && resolved.cancelRate <= 1)) {
    throw new RangeError(`scenario cancelRate must be between 0 and 1, got ${resolved.cancelRate}`);
  }
  if (!(Number.isInteger(resolved.pickupDaysAhead) && resolved.pickupDaysAhead >= 0)) {
    throw new RangeError(`scenario pickupDaysAhead must be an integer >= 0, got ${resolved.pickupDaysAhead}`);
  }
  return resolved;
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
