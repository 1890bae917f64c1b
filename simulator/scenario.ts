// Makes the world move on its own: new orders arrive and pending ones are completed or canceled, then
// archived, after seeded delays per order or at steady rates; where a world turns it on, parents now and
// then edit a pending order's items or notes. It follows the establishments' hours: an order for today's
// pickup arrives (or is edited) only before its establishment's closing time, a few late cancellations,
// reschedules (and edits) follow each closing, and a day on which no establishment works stays quiet.
// Events wait in a time-ordered queue and are applied lazily by `advanceTo`, so the cost is one step per
// event however far the clock jumps, and the same seed and clock readings always give the same world. A world starts as if it had been running:
// the orders already pending are part-way through their wait, so they do not all resolve in one wave.
import type { Establishment, Order, OrderStatus } from '../shared/api/schemas.js';
import { worksOn } from '../shared/detect/closingTimes.js';
import { addDays } from '../shared/time/calendarDate.js';
import { zonedInstant } from '../shared/time/zonedTime.js';
import { ITEM_NOTES, ORDER_NOTES } from './catalog.js';
import { EventQueue } from './eventQueue.js';
import type { SeededRandom } from './seededRandom.js';
import type { World } from './world.js';

export interface ScenarioOptions {
  /** Divides every delay: 10 runs the world ten times faster. Default 1. */
  speed?: number;
  /** Mean gap between new orders at speed 1. Default 60 s. */
  orderIntervalMs?: number;
  /**
   * The longest gap between two new orders, in mean gaps: no draw leaves the world quiet for longer.
   * Default 5; a demo that must show something within seconds of any moment sets 2.
   */
  orderGapCap?: number;
  /** Typical time an order stays pending at speed 1 (each wait is 0.5 to 1.5 times this). Default 20 min. */
  resolveAfterMs?: number;
  /** Typical time from completed or canceled to archived at speed 1 (0.5 to 1.5 times). Default 60 min. */
  archiveAfterMs?: number;
  /** Share of pending orders that end canceled rather than completed. Default 0.2. */
  cancelRate?: number;
  /** New orders are for pickup today up to this many days ahead. Default 3. */
  pickupDaysAhead?: number;
  /** Share of new orders for pickup today, where an establishment still takes today's. Default 0.5. */
  todayShare?: number;
  /**
   * Share of steady resolutions (`resolvePerMinute`) that complete or cancel one of today's pending orders
   * rather than any pending order: a busy lunch resolves today's. Default null: any, with no extra draw.
   */
  resolveTodayShare?: number | null;
  /**
   * Resolutions per minute at speed 1, each of a random pending order, instead of each order's own
   * `resolveAfterMs`: with a large pending pool, per-order delays resolve it all in one burst, while a
   * rate keeps the load steady. Default null (per-order delays).
   */
  resolvePerMinute?: number | null;
  /**
   * Archivings per minute at speed 1, each of a random completed or canceled order, instead of each
   * order's own `archiveAfterMs`. Default null (per-order delays).
   */
  archivePerMinute?: number | null;
  /** Late changes (cancellations or reschedules) of the day's pending orders after each closing. Default 2. */
  lateChangesPerClosing?: number;
  /** Late changes fall within this long after the closing, at speed 1. Default 30 min. */
  lateChangeWindowMs?: number;
  /** Share of late changes that are cancellations; the rest are reschedules. Default 0.5. */
  lateCancelShare?: number;
  /**
   * Edits of pending orders by their parents (a quantity up or down, a line added or removed, the order's
   * or an item's notes added, changed or cleared), per new order: a steady stream at this share of the
   * arrival rate, each gap capped at `orderGapCap` mean gaps as arrivals' are. 0.2 is about one edit for
   * every five new orders. Each edits a random pending order for a later day, or for today at an
   * establishment still taking today's orders. Default 0: no edits, and no draws for them.
   */
  editsPerOrder?: number;
  /**
   * Share of each closing's late changes that are edits of one of the day's pending orders (as above; the
   * first one of the lines) rather than cancellations or reschedules: `lateChangesPerClosing` times this,
   * rounded, and at least one when above 0. An edit's order is chosen at the closing and kept pending
   * until its edit, which falls in the last three quarters of `lateChangeWindowMs`, after the kitchen's
   * prep summary; the first edit's order is the first of the day's the scenario saw pending, kept pending
   * since, so that there is one however early the others were picked up. Default 0: none.
   */
  lateEditShare?: number;
}

export type ResolvedScenarioOptions = Required<ScenarioOptions>;

export const DEFAULT_SCENARIO: ResolvedScenarioOptions = {
  speed: 1,
  orderIntervalMs: 60_000,
  orderGapCap: 5,
  resolveAfterMs: 20 * 60_000,
  archiveAfterMs: 60 * 60_000,
  cancelRate: 0.2,
  pickupDaysAhead: 3,
  todayShare: 0.5,
  resolveTodayShare: null,
  resolvePerMinute: null,
  archivePerMinute: null,
  lateChangesPerClosing: 2,
  lateChangeWindowMs: 30 * 60_000,
  lateCancelShare: 0.5,
  editsPerOrder: 0,
  lateEditShare: 0,
};

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** How far ahead the next working day is looked for: a week holds every weekday. */
const WEEK_DAYS = 7;

type ScenarioEvent =
  | { kind: 'closing'; establishmentUuid: string; pickupDate: string }
  | { kind: 'late-change'; establishmentUuid: string; pickupDate: string }
  | {
      kind: 'late-edit';
      establishmentUuid: string;
      pickupDate: string;
      orderUuid: string;
      /** The closing's first late edit changes the lines, which a kitchen's counts follow. */
      linesOnly: boolean;
    }
  | { kind: 'arrival' }
  | { kind: 'edit' }
  | { kind: 'resolution' }
  | { kind: 'archiving' }
  | { kind: 'transition'; orderUuid: string; from: OrderStatus; to: OrderStatus };

export class Scenario {
  readonly enabled: boolean;
  readonly options: Readonly<ResolvedScenarioOptions>;
  private readonly queue = new EventQueue<ScenarioEvent>();
  /** The establishments' hours, which do not change while the world runs. */
  private readonly establishments: readonly Establishment[];
  /** Draws about closings and hours, a stream of its own so the others' numbers stay as they were. */
  private readonly hoursRng: SeededRandom;
  /** Draws about edits, a stream of their own: a world without edits draws exactly what it always did. */
  private readonly editRng: SeededRandom;
  /** Each product's sku and the classes it is not sold to, for the lines an edit adds. */
  private readonly products: ReadonlyArray<{ sku: string; restrictedTo: readonly string[] }>;
  private readonly closings = new Map<string, number>();
  /**
   * Orders kept pending, each until when: the scenario resolves, cancels or moves none of them before.
   * Each is the order a parent will edit after its closing: reserved (below) until the closing, then
   * chosen for a late edit until that edit. Empty unless late edits are on.
   */
  private readonly held = new Map<string, number>();
  /**
   * Per `<establishment>|<today>` not yet closed, the first pending order for it the scenario saw (at the
   * start, or arriving): kept for the closing's first late edit, so that a closing whose other orders were
   * all picked up early still has one to edit.
   */
  private readonly reserved = new Map<string, string>();
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
    this.establishments = world.establishments();
    this.hoursRng = rng.fork('hours');
    this.editRng = rng.fork('edits');
    this.products = world
      .products()
      .map((product) => ({ sku: product.sku, restrictedTo: product.class_restrictions }));
    if (!this.enabled) return;
    for (const order of world.viewOrders()) {
      const status = order.status.value;
      if (status === 'pending') {
        this.reserveForLateEdit(order, startMs);
        if (this.options.resolvePerMinute === null) this.scheduleResolution(order.uuid, startMs, 'under way');
      } else if (
        (status === 'completed' || status === 'canceled') &&
        this.options.archivePerMinute === null
      ) {
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
    for (const establishment of this.establishments) this.scheduleClosing(establishment, startMs);
    this.scheduleSteady('resolution', this.options.resolvePerMinute, startMs);
    this.scheduleSteady('archiving', this.options.archivePerMinute, startMs);
    this.scheduleEdit(startMs);
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
    if (event.kind === 'closing') return this.closing(at, event.establishmentUuid, event.pickupDate);
    if (event.kind === 'late-change') return this.lateChange(at, event.establishmentUuid, event.pickupDate);
    if (event.kind === 'late-edit') return this.lateEdit(at, event);
    if (event.kind === 'transition' && event.from === 'pending') {
      const heldUntil = this.held.get(event.orderUuid);
      if (heldUntil !== undefined && heldUntil >= at) {
        // Picked up a while after the parent's late edit, rather than before it.
        const wait = this.scaled(this.editRng.between(0.25, 0.75) * this.options.resolveAfterMs);
        this.queue.push(heldUntil + wait, event);
        return false;
      }
    }
    const reopensAt = this.reopeningAfterClosedDay(at);
    if (reopensAt !== undefined) {
      // Nothing moves on a day no establishment works: the event waits for the next working day.
      this.queue.push(reopensAt, event);
      return false;
    }
    if (event.kind === 'arrival') {
      const placed = this.arrival(at);
      this.scheduleArrival(at);
      return placed;
    }
    if (event.kind === 'edit') {
      this.scheduleEdit(at);
      return this.edit(at);
    }
    if (event.kind === 'resolution') {
      this.scheduleSteady('resolution', this.options.resolvePerMinute, at);
      const order = this.pickResolved(at);
      if (!order) return false;
      const to: OrderStatus = this.rng.chance(this.options.cancelRate) ? 'canceled' : 'completed';
      return this.transition(at, order.uuid, 'pending', to);
    }
    if (event.kind === 'archiving') {
      this.scheduleSteady('archiving', this.options.archivePerMinute, at);
      const order = this.pickOrder((status) => status === 'completed' || status === 'canceled');
      if (!order) return false;
      return this.transition(at, order.uuid, order.status, 'archived');
    }
    return this.transition(at, event.orderUuid, event.from, event.to);
  }

  /** A new order, for today only at an establishment still taking today's orders; false when none is. */
  private arrival(at: number): boolean {
    const daysAhead = this.rng.chance(this.options.todayShare)
      ? 0
      : this.rng.int(1, Math.max(1, this.options.pickupDaysAhead));
    const today = this.world.calendar.dateAt(at);
    const last = this.options.pickupDaysAhead;
    for (let ahead = Math.min(daysAhead, last); ahead <= last; ahead += 1) {
      const pickupDate = addDays(today, ahead);
      const open = this.takingOrders(pickupDate, ahead === 0 ? at : undefined);
      if (open.length === 0) continue;
      // When every establishment takes the order, the world draws one as it always did.
      const establishment =
        open.length === this.establishments.length ? undefined : this.hoursRng.pick(open).uuid;
      const order = this.world.addOrder({ createdAtMs: at, pickupDate, establishment });
      if (this.options.resolvePerMinute === null) this.scheduleResolution(order.uuid, at);
      this.reserveForLateEdit(order, at);
      return true;
    }
    return false;
  }

  /** At an establishment's closing: its late changes are scheduled, and its next closing. */
  private closing(at: number, establishmentUuid: string, pickupDate: string): boolean {
    const establishment = this.establishments.find((candidate) => candidate.uuid === establishmentUuid);
    if (!establishment) return false;
    const edits = this.lateEditsPerClosing();
    const slot = `${establishmentUuid}|${pickupDate}`;
    const reservedUuid = this.reserved.get(slot);
    this.reserved.delete(slot);
    if (reservedUuid !== undefined) this.held.delete(reservedUuid);
    const shares = Array.from({ length: this.options.lateChangesPerClosing }, () =>
      this.hoursRng.between(0.05, 1),
    );
    // The edits' own times in order, so the first (the reserved order's, of its lines) comes first.
    const editShares = shares.slice(0, edits).sort((a, b) => a - b);
    for (let i = 0; i < shares.length; i += 1) {
      if (i >= edits) {
        const delay = this.scaled((shares[i] as number) * this.options.lateChangeWindowMs);
        this.queue.push(at + delay, { kind: 'late-change', establishmentUuid, pickupDate });
        continue;
      }
      const share = editShares[i] as number;
      // An edit comes in the window's last three quarters (the same draw, stretched from 0.05–1 to
      // 0.25–1), once the kitchen's summary has surely gone out; its order, chosen now, is held pending
      // until then.
      const order = this.pickLateEditTarget(
        establishmentUuid,
        pickupDate,
        i === 0 ? reservedUuid : undefined,
      );
      if (!order) continue;
      const editShare = 0.25 + ((share - 0.05) / 0.95) * 0.75;
      const editAt = at + this.scaled(editShare * this.options.lateChangeWindowMs);
      this.held.set(order.uuid, editAt);
      this.queue.push(editAt, {
        kind: 'late-edit',
        establishmentUuid,
        pickupDate,
        orderUuid: order.uuid,
        linesOnly: i === 0,
      });
    }
    this.scheduleClosing(establishment, at);
    return false;
  }

  /**
   * One of the closed day's pending orders is canceled, or moved to the establishment's next working day
   * or to another establishment working that day, its status kept.
   */
  private lateChange(at: number, establishmentUuid: string, pickupDate: string): boolean {
    const candidates = this.pendingIn(establishmentUuid, pickupDate);
    if (candidates.length === 0) return false;
    const order = this.hoursRng.pick(candidates);
    if (this.hoursRng.chance(this.options.lateCancelShare)) {
      return this.transition(at, order.uuid, 'pending', 'canceled');
    }
    const others = this.establishments.filter(
      (candidate) => candidate.uuid !== establishmentUuid && worksOn(candidate, pickupDate),
    );
    const establishment = this.establishments.find((candidate) => candidate.uuid === establishmentUuid);
    if (others.length > 0 && (!establishment || this.hoursRng.chance(0.5))) {
      this.world.reschedule(order.uuid, { establishment: this.hoursRng.pick(others).uuid }, { atMs: at });
      return true;
    }
    if (!establishment) return false;
    const nextDay = this.nextWorkingDay(establishment, addDays(pickupDate, 1));
    if (nextDay === undefined) return false;
    this.world.reschedule(order.uuid, { pickupDate: nextDay }, { atMs: at });
    return true;
  }

  /** How many of a closing's late changes are edits: the share of them, rounded, at least one when on. */
  private lateEditsPerClosing(): number {
    const { lateChangesPerClosing: changes, lateEditShare: share } = this.options;
    if (share === 0) return 0;
    return Math.min(changes, Math.max(1, Math.round(changes * share)));
  }

  /**
   * A parent edits one of the closed day's pending orders, the one held for it since the closing (another
   * of that day's, if a test has moved it meanwhile): the kitchen hears of it after its summary.
   */
  private lateEdit(
    at: number,
    event: { establishmentUuid: string; pickupDate: string; orderUuid: string; linesOnly: boolean },
  ): boolean {
    this.held.delete(event.orderUuid);
    const candidates = this.pendingIn(event.establishmentUuid, event.pickupDate);
    const order =
      candidates.find((candidate) => candidate.uuid === event.orderUuid) ??
      (candidates.length > 0 ? this.editRng.pick(candidates) : undefined);
    return order !== undefined && this.editOrder(at, order, event.linesOnly);
  }

  /**
   * A pending order of the establishment and day for a late edit, not already held for another: the
   * reserved one if it still is one of them, otherwise one drawn.
   */
  private pickLateEditTarget(
    establishmentUuid: string,
    pickupDate: string,
    reservedUuid: string | undefined,
  ): Readonly<Order> | undefined {
    const candidates = this.pendingIn(establishmentUuid, pickupDate);
    const reserved = candidates.find((candidate) => candidate.uuid === reservedUuid);
    if (reserved) return reserved;
    return candidates.length > 0 ? this.editRng.pick(candidates) : undefined;
  }

  /**
   * With late edits on, the first pending order for today at each establishment still taking today's
   * orders is held pending until the closing, for its first late edit.
   */
  private reserveForLateEdit(order: Readonly<Order>, at: number): void {
    if (this.lateEditsPerClosing() === 0 || order.pickup_at !== this.world.calendar.dateAt(at)) return;
    const slot = `${order.establishment.uuid}|${order.pickup_at}`;
    if (this.reserved.has(slot)) return;
    const establishment = this.establishments.find(
      (candidate) => candidate.uuid === order.establishment.uuid,
    );
    if (!establishment || !worksOn(establishment, order.pickup_at)) return;
    const closesAt = this.closesAt(establishment, order.pickup_at);
    if (closesAt <= at) return;
    this.reserved.set(slot, order.uuid);
    this.held.set(order.uuid, closesAt);
  }

  /** The establishment's pending orders for the day, in listing order, less those held for a late edit. */
  private pendingIn(establishmentUuid: string, pickupDate: string): ReadonlyArray<Readonly<Order>> {
    return this.world.viewOrders(
      (order) =>
        order.status.value === 'pending' &&
        order.establishment.uuid === establishmentUuid &&
        order.pickup_at === pickupDate &&
        !this.held.has(order.uuid),
    );
  }

  /** A parent edits a pending order still open to changes: for a later day, or for today before its closing. */
  private edit(at: number): boolean {
    const today = this.world.calendar.dateAt(at);
    const open = new Map<string, boolean>();
    const takesToday = (establishmentUuid: string) => {
      let takes = open.get(establishmentUuid);
      if (takes === undefined) {
        const establishment = this.establishments.find((candidate) => candidate.uuid === establishmentUuid);
        takes = establishment !== undefined && this.closesAt(establishment, today) > at;
        open.set(establishmentUuid, takes);
      }
      return takes;
    };
    const candidates = this.world.viewOrders(
      (order) =>
        order.status.value === 'pending' &&
        (order.pickup_at > today || (order.pickup_at === today && takesToday(order.establishment.uuid))),
    );
    if (candidates.length === 0) return false;
    return this.editOrder(at, this.editRng.pick(candidates));
  }

  /**
   * One edit of the order, drawn from what it allows: a line's quantity up (to 4 at most) or down (to 1
   * at least), a line added (a product the customer may have and does not) or removed (never the last),
   * or the order's or a line's notes added, changed or cleared.
   */
  private editOrder(at: number, order: Readonly<Order>, linesOnly = false): boolean {
    const rng = this.editRng;
    const options = { atMs: at };
    const what = linesOnly
      ? 'items'
      : rng.weighted([
          ['items', 6],
          ['notes', 2],
          ['item_notes', 2],
        ] as const);
    if (what === 'notes') {
      this.world.setNotes(order.uuid, this.nextNotes(order.notes, ORDER_NOTES), options);
      return true;
    }
    const line = rng.pick(order.items);
    if (what === 'item_notes') {
      this.world.setItemNotes(order.uuid, line.uuid, this.nextNotes(line.notes, ITEM_NOTES), options);
      return true;
    }
    const customerClass = order.customer.class;
    const addable = this.products.filter(
      (product) =>
        !(customerClass !== null && product.restrictedTo.includes(customerClass)) &&
        !order.items.some((item) => item.sku === product.sku),
    );
    const moves: Array<readonly ['more' | 'fewer' | 'add' | 'remove', number]> = [];
    if (line.quantity < 4) moves.push(['more', 3]);
    if (line.quantity > 1) moves.push(['fewer', 2]);
    if (addable.length > 0) moves.push(['add', 3]);
    if (order.items.length > 1) moves.push(['remove', 2]);
    const move = rng.weighted(moves);
    if (move === 'more') this.world.setItemQuantity(order.uuid, line.uuid, line.quantity + 1, options);
    else if (move === 'fewer') this.world.setItemQuantity(order.uuid, line.uuid, line.quantity - 1, options);
    else if (move === 'remove') this.world.removeItem(order.uuid, line.uuid, options);
    else {
      const product = rng.pick(addable);
      this.world.addItem(order.uuid, { sku: product.sku, uuid: rng.uuid() }, options);
    }
    return true;
  }

  /** Notes added when there are none; otherwise changed to others or cleared, as likely. */
  private nextNotes(current: string | null, choices: readonly string[]): string | null {
    if (current !== null && this.editRng.chance(0.5)) return null;
    const others = choices.filter((note) => note !== current);
    return this.editRng.pick(others);
  }

  /** Establishments taking orders for pickup on `date`; for today (`nowMs` given), only before their closing. */
  private takingOrders(date: string, nowMs: number | undefined): Establishment[] {
    return this.establishments.filter(
      (establishment) =>
        worksOn(establishment, date) && (nowMs === undefined || this.closesAt(establishment, date) > nowMs),
    );
  }

  /** Schedules the establishment's first closing strictly after `afterMs`, if it works any day. */
  private scheduleClosing(establishment: Establishment, afterMs: number): void {
    const today = this.world.calendar.dateAt(afterMs);
    // Eight days: today's closing may be past, and the same weekday comes back a week later.
    for (let ahead = 0; ahead <= WEEK_DAYS; ahead += 1) {
      const date = addDays(today, ahead);
      if (!worksOn(establishment, date)) continue;
      const closesAt = this.closesAt(establishment, date);
      if (closesAt <= afterMs) continue;
      this.queue.push(closesAt, { kind: 'closing', establishmentUuid: establishment.uuid, pickupDate: date });
      return;
    }
  }

  private nextWorkingDay(establishment: Establishment, from: string): string | undefined {
    for (let ahead = 0; ahead < WEEK_DAYS; ahead += 1) {
      const date = addDays(from, ahead);
      if (worksOn(establishment, date)) return date;
    }
    return undefined;
  }

  /**
   * When `at` falls on a day no establishment works, the same time on the next day one does; otherwise
   * (or when none works on any day, where there is nothing to follow) undefined.
   */
  private reopeningAfterClosedDay(at: number): number | undefined {
    const today = this.world.calendar.dateAt(at);
    const works = (date: string) => this.establishments.some((establishment) => worksOn(establishment, date));
    if (works(today)) return undefined;
    for (let ahead = 1; ahead < WEEK_DAYS; ahead += 1) {
      if (works(addDays(today, ahead))) return at + ahead * DAY_MS;
    }
    return undefined;
  }

  /** Remembered per establishment and day: a time-zone lookup per arrival dominated a long jump's cost. */
  private closesAt(establishment: Establishment, date: string): number {
    const key = `${establishment.uuid}|${date}`;
    let closesAt = this.closings.get(key);
    if (closesAt === undefined) {
      closesAt = zonedInstant(date, establishment.order_closing_time, this.world.timeZone);
      this.closings.set(key, closesAt);
    }
    return closesAt;
  }

  private transition(at: number, orderUuid: string, from: OrderStatus, to: OrderStatus): boolean {
    // A test may have moved or removed the order meanwhile; its word wins over the script.
    if (this.world.statusOf(orderUuid) !== from) return false;
    this.world.setStatus(orderUuid, to, { atMs: at });
    if ((to === 'completed' || to === 'canceled') && this.options.archivePerMinute === null) {
      this.queue.push(at + this.scaled(this.aroundTypical(this.options.archiveAfterMs)), {
        kind: 'transition',
        orderUuid,
        from: to,
        to: 'archived',
      });
    }
    return true;
  }

  /** The pending order a steady resolution completes or cancels: one of today's, as often as the world says. */
  private pickResolved(at: number): { uuid: string; status: OrderStatus } | undefined {
    const share = this.options.resolveTodayShare;
    if (share !== null && this.rng.chance(share)) {
      const today = this.world.calendar.dateAt(at);
      const order = this.pickOrder(
        (status) => status === 'pending',
        (pickup) => pickup === today,
      );
      if (order) return order;
    }
    return this.pickOrder((status) => status === 'pending');
  }

  /** A random order among those whose status `keep` accepts, drawn in listing order so a seed replays it. */
  private pickOrder(
    keep: (status: OrderStatus) => boolean,
    onDate: (pickupDate: string) => boolean = () => true,
  ): { uuid: string; status: OrderStatus } | undefined {
    const candidates = this.world.viewOrders(
      (order) =>
        keep(order.status.value as OrderStatus) && onDate(order.pickup_at) && !this.held.has(order.uuid),
    );
    if (candidates.length === 0) return undefined;
    const order = this.rng.pick(candidates);
    return { uuid: order.uuid, status: order.status.value as OrderStatus };
  }

  private scheduleArrival(afterMs: number): void {
    // Capped so that one unlucky draw cannot leave the demo silent for long.
    const gap = Math.min(
      this.rng.exponential(this.options.orderIntervalMs),
      this.options.orderGapCap * this.options.orderIntervalMs,
    );
    this.queue.push(afterMs + this.scaled(gap), { kind: 'arrival' });
  }

  /** The next event of a steady process of `perMinute` events a minute, if that process is on. */
  private scheduleSteady(kind: 'resolution' | 'archiving', perMinute: number | null, afterMs: number): void {
    if (perMinute === null) return;
    const mean = MINUTE_MS / perMinute;
    this.queue.push(afterMs + this.scaled(Math.min(this.rng.exponential(mean), 5 * mean)), { kind });
  }

  /** The next edit of a pending order, if edits are on: gaps like arrivals', stretched by `1 / editsPerOrder`. */
  private scheduleEdit(afterMs: number): void {
    if (this.options.editsPerOrder === 0) return;
    const mean = this.options.orderIntervalMs / this.options.editsPerOrder;
    const gap = Math.min(this.editRng.exponential(mean), this.options.orderGapCap * mean);
    this.queue.push(afterMs + this.scaled(gap), { kind: 'edit' });
  }

  /** `under way`: the order was already waiting when the world started, so only the rest of a wait is left. */
  private scheduleResolution(orderUuid: string, afterMs: number, wait: 'new' | 'under way' = 'new'): void {
    const to: OrderStatus = this.rng.chance(this.options.cancelRate) ? 'canceled' : 'completed';
    const typical = this.options.resolveAfterMs;
    const delay = wait === 'new' ? this.aroundTypical(typical) : this.restOfWaitUnderWay(typical);
    this.queue.push(afterMs + this.scaled(delay), {
      kind: 'transition',
      orderUuid,
      from: 'pending',
      to,
    });
  }

  private aroundTypical(typicalMs: number): number {
    return this.rng.between(0.5, 1.5) * typicalMs;
  }

  /**
   * What is left of an `aroundTypical` wait caught at a random moment, as in a world that has run for long:
   * a long wait is the likelier one to be under way (its length drawn in proportion to itself), and any
   * share of it may be left. Orders found pending then resolve at the steady rate from the start, where
   * fresh waits would resolve them all between 0.5 and 1.5 typical waits from now, in one wave.
   */
  private restOfWaitUnderWay(typicalMs: number): number {
    const [shortest, longest] = [0.5 * typicalMs, 1.5 * typicalMs];
    const wait = Math.sqrt(shortest ** 2 + this.rng.next() * (longest ** 2 - shortest ** 2));
    return this.rng.next() * wait;
  }

  private scaled(ms: number): number {
    return Math.max(1, Math.round(ms / this.options.speed));
  }
}

export function resolveScenarioOptions(options: ScenarioOptions): ResolvedScenarioOptions {
  const resolved = { ...DEFAULT_SCENARIO, ...definedOnly(options) };
  for (const key of [
    'speed',
    'orderIntervalMs',
    'resolveAfterMs',
    'archiveAfterMs',
    'lateChangeWindowMs',
  ] as const) {
    if (!(Number.isFinite(resolved[key]) && resolved[key] > 0)) {
      throw new RangeError(`scenario ${key} must be a positive number, got ${resolved[key]}`);
    }
  }
  if (!(Number.isFinite(resolved.orderGapCap) && resolved.orderGapCap >= 1)) {
    throw new RangeError(`scenario orderGapCap must be a number >= 1, got ${resolved.orderGapCap}`);
  }
  if (!(resolved.cancelRate >= 0 && resolved.cancelRate <= 1)) {
    throw new RangeError(`scenario cancelRate must be between 0 and 1, got ${resolved.cancelRate}`);
  }
  for (const key of ['resolvePerMinute', 'archivePerMinute'] as const) {
    const rate = resolved[key];
    if (rate !== null && !(Number.isFinite(rate) && rate > 0)) {
      throw new RangeError(`scenario ${key} must be a positive number or null, got ${rate}`);
    }
  }
  if (!(Number.isInteger(resolved.lateChangesPerClosing) && resolved.lateChangesPerClosing >= 0)) {
    throw new RangeError(
      `scenario lateChangesPerClosing must be an integer >= 0, got ${resolved.lateChangesPerClosing}`,
    );
  }
  if (
    resolved.resolveTodayShare !== null &&
    !(resolved.resolveTodayShare >= 0 && resolved.resolveTodayShare <= 1)
  ) {
    throw new RangeError(
      `scenario resolveTodayShare must be between 0 and 1 or null, got ${resolved.resolveTodayShare}`,
    );
  }
  for (const key of ['lateCancelShare', 'lateEditShare', 'todayShare'] as const) {
    if (!(resolved[key] >= 0 && resolved[key] <= 1)) {
      throw new RangeError(`scenario ${key} must be between 0 and 1, got ${resolved[key]}`);
    }
  }
  if (!(Number.isFinite(resolved.editsPerOrder) && resolved.editsPerOrder >= 0)) {
    throw new RangeError(`scenario editsPerOrder must be a number >= 0, got ${resolved.editsPerOrder}`);
  }
  if (!(Number.isInteger(resolved.pickupDaysAhead) && resolved.pickupDaysAhead >= 0)) {
    throw new RangeError(`scenario pickupDaysAhead must be an integer >= 0, got ${resolved.pickupDaysAhead}`);
  }
  return resolved;
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
