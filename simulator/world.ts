// One organization's data as the simulator serves it (establishments, products, orders), and the
// programmatic API through which tests change it deterministically.
import { normalizePickupDate } from '../shared/api/pickupDate.js';
import type {
  Customer,
  Establishment,
  Order,
  OrderItem,
  OrderStatus,
  PaymentMethod,
} from '../shared/api/schemas.js';
import { LocalCalendar } from './localCalendar.js';
import { buildItem, buildPendingOrder, recomputeTotals } from './orderFactory.js';
import { nextUpdateMicros, withStatus } from './orderStatus.js';
import {
  buildOrganizationCatalog,
  closingAt,
  type EstablishmentScheduleOverride,
  type OrganizationCatalog,
  type ProductRecord,
} from './organizationCatalog.js';
import type { SeededRandom } from './seededRandom.js';
import { formatTimestamp, microsFromMs } from './timestamps.js';
import { ChangeFeed, itemsText, type WorldChange, type WorldChangeListener } from './worldChange.js';

export interface Organization {
  id: string;
  name: string;
}

/** Fields of a new order; anything left out is drawn from the world's seeded stream. */
export interface OrderOverrides {
  uuid?: string;
  reference?: string;
  /** Default `pending`. */
  status?: OrderStatus;
  /** YYYY-MM-DD or DD/MM/YY; default today in the world's time zone. */
  pickupDate?: string;
  /** Uuid of one of this world's establishments. */
  establishment?: string;
  paymentMethod?: PaymentMethod;
  customer?: Customer;
  notes?: string | null;
  /** Default now. */
  createdAtMs?: number;
}

export interface ChangeOptions {
  /** When the change happens; default now. */
  atMs?: number;
}

export interface WorldOptions {
  organization: Organization;
  rng: SeededRandom;
  clock: () => number;
  timeZone: string;
  /** How many of the catalog's establishment templates the organization runs; default all of them. */
  establishments?: number;
  /** The world's working days and closing times, per establishment in the catalog's order. */
  schedules?: ReadonlyArray<EstablishmentScheduleOverride | undefined>;
  /**
   * The first establishment closes its orders this many seconds after the world starts, working that day:
   * a closing within reach of a test or the demo, whatever the day and hour.
   */
  closingInSeconds?: number;
}

/** A line to add to an order: one of the catalog's products, by sku. */
export interface NewItem {
  sku: string;
  /** Default 1. */
  quantity?: number;
  /** Default null. */
  notes?: string | null;
  /** Default: drawn from the world's stream for edits. */
  uuid?: string;
}

/** Where and when an order is picked up; a reschedule changes one or both. */
export interface PickupSlot {
  /** YYYY-MM-DD or DD/MM/YY. */
  pickupDate?: string;
  /** Uuid of one of this world's establishments. */
  establishment?: string;
}

export class World {
  readonly organization: Organization;
  readonly timeZone: string;
  readonly calendar: LocalCalendar;
  private readonly clock: () => number;
  private readonly catalog: OrganizationCatalog;
  private readonly generator: SeededRandom;
  /** Draws for edits (a new line's uuid), a stream apart so the orders' own draws stay as they were. */
  private readonly editGenerator: SeededRandom;
  private readonly orders = new Map<string, Order>();
  private readonly changes = new ChangeFeed();
  private readonly referencePrefix: string;
  private nextReference = 1001;
  private synchronize: () => void = () => {};

  constructor(options: WorldOptions) {
    this.organization = { ...options.organization };
    this.timeZone = options.timeZone;
    this.calendar = new LocalCalendar(options.timeZone);
    this.clock = options.clock;
    this.catalog = buildOrganizationCatalog(options.rng.fork('catalog'), this.clock(), {
      establishments: options.establishments,
      schedules: options.schedules,
    });
    const { closingInSeconds } = options;
    const [first] = this.catalog.establishments;
    if (closingInSeconds !== undefined && first) {
      if (!(Number.isFinite(closingInSeconds) && closingInSeconds >= 0)) {
        throw new RangeError(`closingInSeconds must be a number >= 0, got ${closingInSeconds}`);
      }
      this.catalog.establishments[0] = closingAt(
        first,
        this.clock() + closingInSeconds * 1000,
        this.timeZone,
      );
    }
    this.generator = options.rng.fork('orders');
    this.editGenerator = options.rng.fork('edits');
    this.referencePrefix = initials(options.organization.name);
  }

  /**
   * Installs the hook that brings the world up to the present (the scenario's pending events) before
   * anyone reads or changes it, so a change made through this API lands after everything already due.
   */
  setSynchronizer(synchronize: () => void): void {
    this.synchronize = synchronize;
  }

  /**
   * Calls `listener` after every change to an order's existence, status, pickup date, establishment,
   * items or notes, in the order the world makes them; a call that leaves the value as it was is no
   * change. Returns the function that unsubscribes.
   */
  onChange(listener: WorldChangeListener): () => void {
    return this.changes.subscribe(listener);
  }

  now(): number {
    return this.clock();
  }

  /** Today's date, YYYY-MM-DD, in the world's time zone. */
  today(): string {
    return this.calendar.dateAt(this.clock());
  }

  establishments(): Establishment[] {
    return structuredClone(this.catalog.establishments);
  }

  /** Moves an establishment's closing time (HH:MM:SS), e.g. to a minute after a demo or a test starts. */
  setOrderClosingTime(establishmentUuid: string, time: string): void {
    const establishment = this.catalog.establishments.find(
      (candidate) => candidate.uuid === establishmentUuid,
    );
    if (!establishment) throw new RangeError(`no establishment ${establishmentUuid} in this organization`);
    establishment.order_closing_time = time;
  }

  /** Sets the ISO weekdays (1 = Monday … 7 = Sunday) an establishment works, e.g. to make today one. */
  setWorkingDays(establishmentUuid: string, days: readonly number[]): void {
    const establishment = this.catalog.establishments.find(
      (candidate) => candidate.uuid === establishmentUuid,
    );
    if (!establishment) throw new RangeError(`no establishment ${establishmentUuid} in this organization`);
    establishment.working_days = [...days];
  }

  /**
   * Renames an establishment (any text, as an API may send, control characters too): GET /establishments
   * and the orders placed from now on carry the new name; orders placed before keep the one they had.
   */
  setEstablishmentName(establishmentUuid: string, name: string): void {
    this.establishmentRecord(establishmentUuid).name = name;
  }

  products(): ProductRecord[] {
    return this.catalog.products.map((product) => structuredClone(product.record));
  }

  customers(): Customer[] {
    return structuredClone(this.catalog.customers);
  }

  /** Every order (or those `keep` accepts), in listing order: pickup date, then creation time, then uuid. */
  listOrders(keep: (order: Readonly<Order>) => boolean = () => true): Order[] {
    return this.viewOrders(keep).map((order) => structuredClone(order));
  }

  /**
   * Like `listOrders` but without copies, for serving: a long demo run holds thousands of orders and a
   * response needs 25. The records must not be edited.
   */
  viewOrders(keep: (order: Readonly<Order>) => boolean = () => true): ReadonlyArray<Readonly<Order>> {
    this.synchronize();
    return [...this.orders.values()].filter(keep).sort(compareForListing);
  }

  getOrder(uuid: string): Order | undefined {
    this.synchronize();
    const order = this.orders.get(uuid);
    return order && structuredClone(order);
  }

  /** The order's status without copying the whole record. */
  statusOf(uuid: string): OrderStatus | undefined {
    this.synchronize();
    return this.orders.get(uuid)?.status.value as OrderStatus | undefined;
  }

  get orderCount(): number {
    this.synchronize();
    return this.orders.size;
  }

  addOrder(overrides: OrderOverrides = {}): Order {
    this.synchronize();
    return structuredClone(this.insert(overrides));
  }

  /**
   * Adds an order that has already lived: created, then moved through each step of `history` in turn.
   * For filling a world in bulk, so it returns only the uuid and spares the copies `addOrder` and
   * `setStatus` hand out, which would cost more than building the orders.
   */
  addOrderWithHistory(
    overrides: OrderOverrides,
    history: ReadonlyArray<{ status: OrderStatus; atMs: number }>,
  ): string {
    this.synchronize();
    const { uuid } = this.insert(overrides);
    for (const step of history) this.applyStatus(uuid, step.status, { atMs: step.atMs });
    return uuid;
  }

  setStatus(uuid: string, status: OrderStatus, options: ChangeOptions = {}): Order {
    this.synchronize();
    return structuredClone(this.applyStatus(uuid, status, options));
  }

  setPickupDate(uuid: string, pickupDate: string, options: ChangeOptions = {}): Order {
    this.synchronize();
    const date = isoDate(pickupDate);
    const before = this.existing(uuid).pickup_at;
    const after = this.change(uuid, options, (order) => {
      order.pickup_at = date;
    });
    this.recordIfChanged(after, 'pickup_date', before, date, options);
    return structuredClone(after);
  }

  setEstablishment(uuid: string, establishmentUuid: string, options: ChangeOptions = {}): Order {
    this.synchronize();
    const establishment = this.establishmentRecord(establishmentUuid);
    const before = this.existing(uuid).establishment.uuid;
    const after = this.change(uuid, options, (order) => {
      order.establishment = { uuid: establishment.uuid, name: establishment.name };
    });
    this.recordIfChanged(after, 'establishment', before, establishment.uuid, options);
    return structuredClone(after);
  }

  /**
   * Moves the order to another pickup date or establishment (or both) in one change, its status kept:
   * one `updated_at`, one `rescheduled` world change whose `from` and `to` read `<establishment>|<date>`.
   */
  reschedule(uuid: string, to: PickupSlot, options: ChangeOptions = {}): Order {
    this.synchronize();
    const date = to.pickupDate === undefined ? undefined : isoDate(to.pickupDate);
    const establishment =
      to.establishment === undefined ? undefined : this.establishmentRecord(to.establishment);
    const before = this.existing(uuid);
    const from = slotKey(before.establishment.uuid, before.pickup_at);
    const target = slotKey(establishment?.uuid ?? before.establishment.uuid, date ?? before.pickup_at);
    if (from === target) return structuredClone(before);
    const after = this.change(uuid, options, (order) => {
      if (date !== undefined) order.pickup_at = date;
      if (establishment) order.establishment = { uuid: establishment.uuid, name: establishment.name };
    });
    this.record(after, 'rescheduled', from, target, options.atMs ?? this.clock());
    return structuredClone(after);
  }

  /**
   * The pending orders picked up at `establishmentUuid` on `pickupDate` (YYYY-MM-DD), in listing order:
   * what a prep summary of that establishment and day should count.
   */
  pendingOrders(establishmentUuid: string, pickupDate: string): Order[] {
    const date = isoDate(pickupDate);
    return this.listOrders(
      (order) =>
        order.status.value === 'pending' &&
        order.establishment.uuid === establishmentUuid &&
        order.pickup_at === date,
    );
  }

  /** The order's own notes (null clears them): a `notes` world change when they differ. */
  setNotes(uuid: string, notes: string | null, options: ChangeOptions = {}): Order {
    this.synchronize();
    const before = this.existing(uuid).notes;
    const after = this.change(uuid, options, (order) => {
      order.notes = notes;
    });
    if (before !== notes) this.record(after, 'notes', before, notes, options.atMs ?? this.clock());
    return structuredClone(after);
  }

  /*
   * Edits of an order's lines, as a parent makes them on a pending order (the world takes them on any
   * order: a test's word wins). Each keeps the totals true (a line's total is its price times its
   * quantity; the subtotal and total, the sum of the lines), bumps `updated_at` and is one world change:
   * `items` (from and to read `SKU×quantity, …`) or `item_notes`. A call that changes nothing is no
   * change and leaves `updated_at` as it was.
   */

  /** Sets a line's quantity, 1 or more. */
  setItemQuantity(uuid: string, itemUuid: string, quantity: number, options: ChangeOptions = {}): Order {
    this.synchronize();
    if (!(Number.isInteger(quantity) && quantity >= 1)) {
      throw new RangeError(`quantity must be an integer >= 1, got ${quantity}; remove the item instead`);
    }
    const line = this.existingItem(uuid, itemUuid);
    if (line.quantity === quantity) return structuredClone(this.existing(uuid));
    return this.editItems(uuid, options, (order) => {
      const item = order.items.find((candidate) => candidate.uuid === itemUuid) as OrderItem;
      item.quantity = quantity;
      if (item.fulfillment_status === 'fulfilled') item.fulfilled_quantity = quantity;
    });
  }

  /**
   * Adds a line of the catalog's product `sku` at the price the order's customer pays; it takes the
   * status and fulfilment of the order's other lines.
   */
  addItem(uuid: string, line: NewItem, options: ChangeOptions = {}): Order {
    this.synchronize();
    const product = this.catalog.products.find((candidate) => candidate.record.sku === line.sku);
    if (!product) throw new RangeError(`no product ${line.sku} in this organization's catalog`);
    const quantity = line.quantity ?? 1;
    if (!(Number.isInteger(quantity) && quantity >= 1)) {
      throw new RangeError(`quantity must be an integer >= 1, got ${quantity}`);
    }
    const existing = this.existing(uuid);
    const itemUuid = line.uuid ?? this.editGenerator.uuid();
    if (existing.items.some((item) => item.uuid === itemUuid)) {
      throw new RangeError(`order ${uuid} already has an item ${itemUuid}`);
    }
    const createdAt = formatTimestamp(nextUpdateMicros(existing, this.changeMicros(options)));
    const item = buildItem(product, existing.customer, {
      uuid: itemUuid,
      quantity,
      notes: line.notes ?? null,
      createdAt,
    });
    const [sibling] = existing.items;
    if (sibling) {
      item.status = { ...sibling.status };
      item.fulfillment_status = sibling.fulfillment_status;
      item.fulfilled_quantity = sibling.fulfillment_status === 'fulfilled' ? quantity : 0;
    }
    return this.editItems(uuid, options, (order) => {
      order.items.push(item);
    });
  }

  /** Removes a line; an order keeps at least one, so removing the last is refused. */
  removeItem(uuid: string, itemUuid: string, options: ChangeOptions = {}): Order {
    this.synchronize();
    this.existingItem(uuid, itemUuid);
    if (this.existing(uuid).items.length === 1) {
      throw new RangeError(`item ${itemUuid} is the only one of order ${uuid}; an order keeps at least one`);
    }
    return this.editItems(uuid, options, (order) => {
      order.items = order.items.filter((item) => item.uuid !== itemUuid);
    });
  }

  /** A line's notes (null clears them): an `item_notes` world change naming the item. */
  setItemNotes(uuid: string, itemUuid: string, notes: string | null, options: ChangeOptions = {}): Order {
    this.synchronize();
    const before = this.existingItem(uuid, itemUuid).notes;
    if (before === notes) return structuredClone(this.existing(uuid));
    const after = this.change(uuid, options, (order) => {
      const item = order.items.find((candidate) => candidate.uuid === itemUuid) as OrderItem;
      item.notes = notes;
    });
    this.record(after, 'item_notes', before, notes, options.atMs ?? this.clock(), itemUuid);
    return structuredClone(after);
  }

  /** Returns whether the order existed. */
  removeOrder(uuid: string, options: ChangeOptions = {}): boolean {
    this.synchronize();
    const order = this.orders.get(uuid);
    if (!order) return false;
    this.orders.delete(uuid);
    this.record(order, 'removed', order.status.value, null, options.atMs ?? this.clock());
    return true;
  }

  /** Returns the stored record, not a copy. */
  private insert(overrides: OrderOverrides): Order {
    const createdAtMicros = microsFromMs(overrides.createdAtMs ?? this.clock());
    const uuid = overrides.uuid;
    if (uuid !== undefined && this.orders.has(uuid)) throw new RangeError(`order ${uuid} already exists`);
    const pending = buildPendingOrder(this.generator, this.catalog, {
      reference: overrides.reference ?? this.takeReference(),
      pickupDate:
        overrides.pickupDate === undefined
          ? this.calendar.dateAt(overrides.createdAtMs ?? this.clock())
          : isoDate(overrides.pickupDate),
      createdAtMicros,
      uuid,
      establishmentUuid: overrides.establishment,
      paymentMethod: overrides.paymentMethod,
      customer: overrides.customer,
      notes: overrides.notes,
    });
    const order = withStatus(pending, overrides.status ?? 'pending', createdAtMicros);
    this.orders.set(order.uuid, order);
    this.record(order, 'created', null, order.status.value, overrides.createdAtMs ?? this.clock());
    return order;
  }

  /** Returns the stored record, not a copy. */
  private applyStatus(uuid: string, status: OrderStatus, options: ChangeOptions): Order {
    const before = this.existing(uuid);
    const after = withStatus(before, status, this.changeMicros(options));
    this.orders.set(uuid, after);
    this.recordIfChanged(after, 'status', before.status.value, status, options);
    return after;
  }

  /** Stores an edited copy of the order and returns that stored record, not a copy of it. */
  private change(uuid: string, options: ChangeOptions, edit: (order: Order) => void): Order {
    const order = structuredClone(this.existing(uuid));
    edit(order);
    order.updated_at = formatTimestamp(nextUpdateMicros(order, this.changeMicros(options)));
    this.orders.set(uuid, order);
    return order;
  }

  /** Applies an edit of the lines, recomputes the totals and records one `items` change. */
  private editItems(uuid: string, options: ChangeOptions, edit: (order: Order) => void): Order {
    const before = itemsText(this.existing(uuid).items);
    const after = this.change(uuid, options, (order) => {
      edit(order);
      recomputeTotals(order);
    });
    this.record(after, 'items', before, itemsText(after.items), options.atMs ?? this.clock());
    return structuredClone(after);
  }

  private existingItem(uuid: string, itemUuid: string): OrderItem {
    const item = this.existing(uuid).items.find((candidate) => candidate.uuid === itemUuid);
    if (!item) throw new RangeError(`order ${uuid} has no item ${itemUuid}`);
    return item;
  }

  private recordIfChanged(
    order: Order,
    kind: WorldChange['kind'],
    from: string,
    to: string,
    options: ChangeOptions,
  ): void {
    if (from !== to) this.record(order, kind, from, to, options.atMs ?? this.clock());
  }

  private record(
    order: Order,
    kind: WorldChange['kind'],
    from: string | null,
    to: string | null,
    at: number,
    itemUuid?: string,
  ): void {
    this.changes.emit({
      at,
      orderUuid: order.uuid,
      kind,
      from,
      to,
      pickupDate: order.pickup_at,
      establishmentUuid: order.establishment.uuid,
      ...(itemUuid === undefined ? {} : { itemUuid }),
    });
  }

  private establishmentRecord(uuid: string): Establishment {
    const establishment = this.catalog.establishments.find((candidate) => candidate.uuid === uuid);
    if (!establishment) throw new RangeError(`no establishment ${uuid} in this organization`);
    return establishment;
  }

  private existing(uuid: string): Order {
    const order = this.orders.get(uuid);
    if (!order) throw new RangeError(`no order ${uuid} in ${this.organization.name}`);
    return order;
  }

  private changeMicros(options: ChangeOptions): number {
    return microsFromMs(options.atMs ?? this.clock());
  }

  private takeReference(): string {
    const reference = `${this.referencePrefix}-${this.nextReference}`;
    this.nextReference += 1;
    return reference;
  }
}

export function compareForListing(a: Order, b: Order): number {
  return (
    compareText(a.pickup_at, b.pickup_at) ||
    compareText(a.created_at, b.created_at) ||
    compareText(a.uuid, b.uuid)
  );
}

/** `<establishment uuid>|<pickup date>`, as the poll state keys its prep summaries. */
export function slotKey(establishmentUuid: string, pickupDate: string): string {
  return `${establishmentUuid}|${pickupDate}`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isoDate(text: string): string {
  const date = normalizePickupDate(text);
  if (date === undefined) throw new RangeError(`pickup date "${text}" is neither YYYY-MM-DD nor DD/MM/YY`);
  return date;
}

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .map((word) =>
      word
        .normalize('NFD')
        .replace(/[^A-Za-z]/g, '')
        .charAt(0),
    )
    .join('')
    .toUpperCase();
  return letters || 'ORD';
}
