// The poll cycle's OrdersSource in memory: orders and establishments a test holds and changes, served as
// the Admin API would (its filters, 25 a page, meta.total) and walked by the client's own pagination code.
import type * as z from 'zod';
import {
  MalformedResponseError,
  NetworkError,
  type RequestContext,
  ServerError,
  UnauthorizedError,
  ValidationError,
} from '../../shared/api/errors.js';
import { type ListPage, parseListPage } from '../../shared/api/listPage.js';
import { type OrderQuery, orderQueryParams } from '../../shared/api/orderQuery.js';
import { type Listing, type ListingWalk, walkPages } from '../../shared/api/pagination.js';
import { normalizePickupDate } from '../../shared/api/pickupDate.js';
import {
  type Establishment,
  EstablishmentSchema,
  type Order,
  type OrderInput,
  OrderSchema,
  type OrderStatus,
} from '../../shared/api/schemas.js';
import type { OrdersSource } from '../../shared/poll/ordersSource.js';
import { calendarDateIn } from '../../shared/time/calendarDate.js';
import {
  type OrderListingQuery,
  parseOrderListingQuery,
  validationMessage,
} from '../../simulator/orderListingQuery.js';
import { withStatus } from '../../simulator/orderStatus.js';
import { PAGE_SIZE, paginate } from '../../simulator/pagination.js';
import { PickupDateWriter, type PickupFormat } from '../../simulator/pickupFormat.js';
import { microsFromMs } from '../../simulator/timestamps.js';
import { CountingBudget, type SourceBudget } from './cycleBudgets.js';
import { ORGANIZATION } from './detectFixtures.js';
import type { EstablishmentInput } from './orderFactory.js';

export const IN_MEMORY_BASE_URL = 'https://admin.example.test/api/v1/admin';

export interface InMemoryOrdersSourceOptions {
  /** @default detectFixtures' ORGANIZATION.id */
  organizationId?: string;
  /** Names the organization in errors, as AdminApiClient's organizationName. @default the id */
  organizationName?: string;
  /** Only the error context and the listings' links show it. @default IN_MEMORY_BASE_URL */
  baseUrl?: string;
  /** What every request is drawn from. @default a CountingBudget of 45 */
  budget?: SourceBudget;
  orders?: readonly OrderInput[];
  establishments?: readonly EstablishmentInput[];
  /** The server's today, for a date bound the query leaves out (the spec's default). @default Date.now */
  clock?: () => number;
  /** The zone of the server's today. @default 'UTC' */
  timeZone?: string;
  /** Refuse to walk a listing longer than this, as the client does. @default 400 */
  maxPages?: number;
  /** How `pickup_at` is written, as the simulator's option (`mixed` flips per response). @default 'iso' */
  pickupFormat?: PickupFormat;
}

/** One page fetched (or attempted), in order. */
export interface FetchedPage {
  listing: 'orders' | 'establishments';
  /** The filters as sent, by the API's parameter names (`status`, `start_date`, …), `page` aside. */
  params: Record<string, string>;
  page: number;
  /** As the client names it in errors: `GET /orders?status=pending&…&page=2`. */
  endpoint: string;
}

/** A failure to answer with instead of a page, until removed or used up. */
export interface ListingFailure {
  /** @default 'orders' */
  listing?: 'orders' | 'establishments';
  /** Orders only: the query must have these very values (compared to the OrderQuery passed). @default any */
  query?: Partial<OrderQuery>;
  /** Only this page of the listing. @default every page */
  page?: number;
  /** Fails this many fetches, then serves again. @default every fetch until removed */
  times?: number;
  /** The error, or a factory given the request's context (organization, endpoint) as the client builds it. */
  error: Error | ((context: RequestContext) => Error);
}

/** Factories for `ListingFailure.error`: the client's errors once its retries are spent. */
export const apiFailures = {
  server:
    (status = 500) =>
    (context: RequestContext) =>
      new ServerError(context, status),
  network:
    (detail = 'connection reset') =>
    (context: RequestContext) =>
      new NetworkError(context, new Error(detail)),
  unauthorized: () => (context: RequestContext) => new UnauthorizedError(context),
};

/**
 * Serves the orders and establishments it holds as the Admin API would, through the real pagination
 * (`walkPages`) and page parser (`parseListPage`), with the simulator's filters and Laravel pages: the
 * same `Listing`, ListingWalk options, keys, problems and errors as AdminApiClient. Every page fetched
 * takes one request from `budget` first and counts one in `requestCount`; an injected failure counts its
 * request too and is final (the client's retries are not modelled, nor a 429's pause).
 */
export class InMemoryOrdersSource implements OrdersSource {
  readonly budget: SourceBudget;
  readonly organizationId: string;
  readonly #label: string;
  readonly #baseUrl: URL;
  readonly #clock: () => number;
  readonly #timeZone: string;
  readonly #maxPages: number;
  readonly #pickupDates: PickupDateWriter;
  /** Order records as the API would send them (possibly malformed), by uuid. */
  readonly #orders = new Map<string, Record<string, unknown>>();
  #establishments: Record<string, unknown>[] = [];
  readonly #failures: ListingFailure[] = [];
  readonly #fetched: FetchedPage[] = [];
  #requests = 0;

  constructor(options: InMemoryOrdersSourceOptions = {}) {
    this.organizationId = options.organizationId ?? ORGANIZATION.id;
    this.#label = options.organizationName ?? this.organizationId;
    this.#baseUrl = new URL((options.baseUrl ?? IN_MEMORY_BASE_URL).replace(/\/+$/, ''));
    this.budget = options.budget ?? new CountingBudget();
    this.#clock = options.clock ?? Date.now;
    this.#timeZone = options.timeZone ?? 'UTC';
    this.#maxPages = options.maxPages ?? 400;
    this.#pickupDates = new PickupDateWriter(options.pickupFormat ?? 'iso');
    this.addOrders(...(options.orders ?? []));
    this.setEstablishments(options.establishments ?? []);
  }

  /** Pages fetched so far, failed ones included, as AdminApiClient counts its requests. */
  get requestCount(): number {
    return this.#requests;
  }

  /** Every page fetched (or attempted), oldest first. */
  get fetched(): readonly FetchedPage[] {
    return this.#fetched;
  }

  listOrders(query: OrderQuery = {}, walk: ListingWalk<Order> = {}): Promise<Listing<Order>> {
    return this.#list('orders', orderQueryParams(query), OrderSchema, walk, (url) => this.#ordersPage(url));
  }

  listEstablishments(walk: ListingWalk<Establishment> = {}): Promise<Listing<Establishment>> {
    return this.#list('establishments', {}, EstablishmentSchema, walk, (url) =>
      this.#establishmentsPage(url),
    );
  }

  // --- the world ---

  /** Adds orders (copies); an order whose uuid is already held is a mistake in the test, and throws. */
  addOrders(...orders: readonly OrderInput[]): void {
    for (const order of orders) {
      if (this.#orders.has(order.uuid)) throw new Error(`order ${order.uuid} is already in the source`);
      this.#orders.set(order.uuid, structuredClone(order));
    }
  }

  /** Adds or replaces an order by uuid (a copy). */
  putOrder(order: OrderInput): void {
    this.#orders.set(order.uuid, structuredClone(order));
  }

  /**
   * Adds or replaces a record by its `uuid` without any check: a malformed order the listing serves and
   * the client skips (and reports), as long as its status, pickup date and establishment still match.
   */
  putRawRecord(record: { uuid: string } & Record<string, unknown>): void {
    this.#orders.set(record.uuid, structuredClone(record));
  }

  /** Changes an order: fields merged over it, or a function of a copy of it. Throws for an unknown uuid. */
  updateOrder(uuid: string, change: Partial<OrderInput> | ((order: OrderInput) => OrderInput)): OrderInput {
    const current = this.#existing(uuid);
    const next = typeof change === 'function' ? change(current) : { ...current, ...structuredClone(change) };
    this.#orders.set(uuid, structuredClone({ ...next, uuid }));
    return structuredClone(next);
  }

  /**
   * Moves an order to `status` as the simulator does: canceled_at / completed_at, can_be_cancelled and the
   * items follow, and updated_at moves to `atMs` (or just after the last update). @param atMs default: clock
   */
  setStatus(uuid: string, status: OrderStatus, atMs = this.#clock()): OrderInput {
    return this.updateOrder(uuid, (order) => withStatus(order, status, microsFromMs(atMs)));
  }

  removeOrder(uuid: string): void {
    if (!this.#orders.delete(uuid)) throw new Error(`no order ${uuid} in the source`);
  }

  /** A copy of the order, or undefined. */
  order(uuid: string): OrderInput | undefined {
    const record = this.#orders.get(uuid);
    return record && (structuredClone(record) as OrderInput);
  }

  /** Copies of every record held, in the listing's order. */
  orders(): OrderInput[] {
    return structuredClone([...this.#orders.values()].sort(compareForListing)) as OrderInput[];
  }

  /** What GET /establishments answers from now on (copies, in this order). */
  setEstablishments(establishments: readonly EstablishmentInput[]): void {
    this.#establishments = structuredClone([...establishments]) as unknown as Record<string, unknown>[];
  }

  // --- failures ---

  /** Answers matching fetches with an error instead of a page; returns what removes the failure. */
  failListing(failure: ListingFailure): () => void {
    const held = { ...failure };
    this.#failures.push(held);
    return () => {
      const at = this.#failures.indexOf(held);
      if (at >= 0) this.#failures.splice(at, 1);
    };
  }

  clearFailures(): void {
    this.#failures.splice(0);
  }

  // --- serving ---

  /** As AdminApiClient's #list: the same URL, listing key, page limit, record identity and walk. */
  #list<T>(
    listing: FetchedPage['listing'],
    params: Record<string, string>,
    schema: z.ZodType<T>,
    walk: ListingWalk<T>,
    serve: (url: URL) => unknown,
  ): Promise<Listing<T>> {
    const path = `/${listing}`;
    const firstUrl = new URL(`${this.#baseUrl.pathname}${path}`, this.#baseUrl);
    for (const [key, value] of Object.entries(params)) firstUrl.searchParams.set(key, value);
    return walkPages(firstUrl, (url) => this.#fetchPage(listing, url, params, schema, serve), {
      ...walk,
      listing: walk.listing ?? `${path}${firstUrl.search}`,
      maxPages: walk.maxPages ?? this.#maxPages,
      context: (url) => this.#context(url),
      idOf: (record) => {
        const uuid = (record as { uuid?: unknown }).uuid;
        return typeof uuid === 'string' ? uuid : undefined;
      },
    });
  }

  async #fetchPage<T>(
    listing: FetchedPage['listing'],
    url: URL,
    params: Record<string, string>,
    schema: z.ZodType<T>,
    serve: (url: URL) => unknown,
  ): Promise<ListPage<T>> {
    const context = this.#context(url);
    await this.budget.acquire(context);
    this.#requests += 1;
    const page = Number(url.searchParams.get('page') ?? '1');
    this.#fetched.push({ listing, params: { ...params }, page, endpoint: context.endpoint });
    const failure = this.#failureFor(listing, url, page);
    if (failure) throw typeof failure.error === 'function' ? failure.error(context) : failure.error;
    // Through JSON, as over the wire: nothing the caller gets shares anything with the world.
    const body = JSON.parse(JSON.stringify(serve(url)));
    const parsed = parseListPage(body, schema);
    if (!parsed.ok) throw new MalformedResponseError(context, 200, parsed.problem);
    return parsed.page;
  }

  /** GET /orders as the simulator answers it: validated query, spec defaults, filters, Laravel page. */
  #ordersPage(url: URL): unknown {
    const parsed = parseOrderListingQuery(url.searchParams, calendarDateIn(this.#timeZone, this.#clock()));
    if (!parsed.ok) {
      throw new ValidationError(this.#context(url), parsed.errors, validationMessage(parsed.errors));
    }
    const matching = [...this.#orders.values()]
      .filter((record) => matches(record, parsed.query))
      .sort(compareForListing);
    const writeDate = this.#pickupDates.nextResponse();
    const page = paginate(matching, parsed.query.page, {
      path: `${url.origin}${url.pathname}`,
      query: url.searchParams,
    });
    return {
      success: true,
      message: 'Orders retrieved successfully.',
      // A date that does not read is sent as it is, as a broken record would be.
      data: page.data.map((record) => {
        const pickupDate = pickupDateOf(record);
        return pickupDate === ''
          ? record
          : { ...record, pickup_at: writeDate(pickupDate, textAt(record, 'uuid')) };
      }),
      links: page.links,
      meta: page.meta,
    };
  }

  /**
   * GET /establishments as the spec's sample and the simulator show it: every record, no pagination keys.
   * Past one page (25), paginated as the spec says every list endpoint is: the sample never showed more.
   */
  #establishmentsPage(url: URL): unknown {
    const envelope = { success: true, message: 'Establishments retrieved successfully.' };
    if (this.#establishments.length <= PAGE_SIZE) return { ...envelope, data: this.#establishments };
    const page = paginate(this.#establishments, Number(url.searchParams.get('page') ?? '1'), {
      path: `${url.origin}${url.pathname}`,
      query: url.searchParams,
    });
    return { ...envelope, data: page.data, links: page.links, meta: page.meta };
  }

  #failureFor(listing: FetchedPage['listing'], url: URL, page: number): ListingFailure | undefined {
    const failure = this.#failures.find(
      (candidate) =>
        (candidate.listing ?? 'orders') === listing &&
        (candidate.page === undefined || candidate.page === page) &&
        Object.entries(orderQueryParams(candidate.query ?? {})).every(
          ([name, value]) => url.searchParams.get(name) === value,
        ),
    );
    if (failure?.times !== undefined) {
      failure.times -= 1;
      if (failure.times <= 0) this.#failures.splice(this.#failures.indexOf(failure), 1);
    }
    return failure;
  }

  #existing(uuid: string): OrderInput {
    const record = this.#orders.get(uuid);
    if (!record) throw new Error(`no order ${uuid} in the source`);
    return structuredClone(record) as OrderInput;
  }

  /** As the client names a request: the organization, and the endpoint relative to the base URL. */
  #context(url: URL): RequestContext {
    const path = url.pathname.startsWith(this.#baseUrl.pathname)
      ? url.pathname.slice(this.#baseUrl.pathname.length)
      : url.pathname;
    return { organization: this.#label, endpoint: `GET ${path}${url.search}` };
  }
}

/** A field of a record that may be malformed, as text (empty when absent). */
function textAt(record: Record<string, unknown>, key: string, inner?: string): string {
  const value = record[key];
  const field = inner === undefined ? value : (value as Record<string, unknown> | null | undefined)?.[inner];
  return typeof field === 'string' ? field : '';
}

function pickupDateOf(record: Record<string, unknown>): string {
  return normalizePickupDate(textAt(record, 'pickup_at')) ?? '';
}

/** The simulator's filters (simulator/routes/orders.ts) over records that may be malformed. */
function matches(record: Record<string, unknown>, query: OrderListingQuery): boolean {
  const pickupDate = pickupDateOf(record);
  return (
    textAt(record, 'status', 'value') === query.status &&
    (query.establishment === undefined || textAt(record, 'establishment', 'uuid') === query.establishment) &&
    pickupDate >= query.startDate &&
    pickupDate <= query.endDate &&
    (query.paymentMethod === undefined ||
      textAt(record, 'payment_method_type', 'value') === query.paymentMethod)
  );
}

/** The simulator's listing order (simulator/world.ts compareForListing): pickup date, creation, uuid. */
function compareForListing(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return (
    compare(pickupDateOf(a), pickupDateOf(b)) ||
    compare(textAt(a, 'created_at'), textAt(b, 'created_at')) ||
    compare(textAt(a, 'uuid'), textAt(b, 'uuid'))
  );
}
