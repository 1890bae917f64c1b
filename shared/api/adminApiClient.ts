// The Admin API client: authenticated GETs with the request budget, retries and typed errors, and the
// three listings walked page by page.
import type * as z from 'zod';
import type { HttpClientFactory, HttpTimeouts } from '../http/httpClient.js';
import { retryAfterMs } from '../http/retryAfter.js';
import { HttpTransport, type TransportResponse } from '../http/transport.js';
import { sleep } from '../time/sleep.js';
import { type ErrorBody, ErrorBodySchema } from './envelope.js';
import {
  type AdminApiError,
  errorFromResponse,
  errorFromTransportFailure,
  MalformedResponseError,
  RateLimitedError,
  type RequestContext,
} from './errors.js';
import { type ListPage, parseListPage } from './listPage.js';
import { type OrderQuery, orderQueryParams } from './orderQuery.js';
import { type Listing, type ListingWalk, walkPages } from './pagination.js';
import { RequestBudget } from './requestBudget.js';
import { apiRetryDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retryPolicy.js';
import {
  type Establishment,
  EstablishmentSchema,
  type Order,
  OrderSchema,
  type Product,
  ProductSchema,
} from './schemas.js';

const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 5_000, headersMs: 15_000, bodyMs: 15_000 };

/**
 * Pages are fetched one after another, so one socket per origin suffices; with more, undici's pool
 * alternates sequential requests between two sockets (the next request is dispatched before the previous
 * connection is marked free), opening connections it does not need.
 */
const API_CONNECTIONS = 1;

export interface AdminApiClientOptions {
  /** Ends in `/api/v1/admin`. */
  baseUrl: string;
  organizationId: string;
  /** Used in error messages instead of the uuid when given. */
  organizationName?: string;
  token: string;
  /** @default a budget of 50/min private to this client */
  budget?: RequestBudget;
  /** @default DEFAULT_RETRY_POLICY */
  retry?: Partial<RetryPolicy>;
  /** @default DEFAULT_TIMEOUTS */
  timeouts?: Partial<HttpTimeouts>;
  /** Makes the client's HTTP client (closed with it). @default Node's fetch (createFetchHttpClient) */
  httpClient?: HttpClientFactory;
  /** Refuse to walk a listing longer than this. @default 400 (10,000 orders) */
  maxPages?: number;
  /** Told of every attempt, for verbose output and metrics. */
  onAttempt?: (attempt: AttemptReport) => void;
  /** @default Date.now */
  clock?: () => number;
  /** @default a setTimeout-based sleep */
  sleep?: (ms: number) => Promise<void>;
  /** @default Math.random */
  random?: () => number;
}

export interface AttemptReport {
  endpoint: string;
  attempt: number;
  status: number | undefined;
  durationMs: number;
  /** Set when the attempt failed and another is scheduled. */
  retryInMs?: number;
  error?: AdminApiError;
}

export class AdminApiClient {
  readonly budget: RequestBudget;
  readonly #baseUrl: URL;
  readonly #organizationId: string;
  readonly #organizationLabel: string;
  readonly #headers: Record<string, string>;
  readonly #retry: RetryPolicy;
  readonly #transport: HttpTransport;
  readonly #maxPages: number;
  readonly #onAttempt: (attempt: AttemptReport) => void;
  readonly #clock: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  #requests = 0;

  constructor(options: AdminApiClientOptions) {
    this.#baseUrl = new URL(options.baseUrl.replace(/\/+$/, ''));
    this.#organizationId = options.organizationId;
    this.#organizationLabel = options.organizationName ?? options.organizationId;
    this.#headers = {
      authorization: `Bearer ${options.token}`,
      'x-service-organization': options.organizationId,
      accept: 'application/json',
    };
    this.#clock = options.clock ?? Date.now;
    this.#sleep = options.sleep ?? sleep;
    this.#random = options.random ?? Math.random;
    this.budget =
      options.budget ?? new RequestBudget({ token: options.token, clock: this.#clock, sleep: this.#sleep });
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#transport = new HttpTransport({
      timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
      maxConnections: API_CONNECTIONS,
      ...(options.httpClient === undefined ? {} : { httpClient: options.httpClient }),
      // A server may echo the request, and so the token, in its error body.
      secrets: [{ value: options.token, mask: '[redacted]' }],
    });
    this.#maxPages = options.maxPages ?? 400;
    this.#onAttempt = options.onAttempt ?? (() => {});
  }

  get organizationId(): string {
    return this.#organizationId;
  }

  /** HTTP requests sent so far, retries included. */
  get requestCount(): number {
    return this.#requests;
  }

  /** `walk` resumes at a later page, or stops before a page it may not afford or once enough was found. */
  listOrders(query: OrderQuery = {}, walk: ListingWalk<Order> = {}): Promise<Listing<Order>> {
    return this.#list('/orders', orderQueryParams(query), OrderSchema, walk);
  }

  /** `walk` stops before a page it may not afford, as for orders. */
  listEstablishments(walk: ListingWalk<Establishment> = {}): Promise<Listing<Establishment>> {
    return this.#list('/establishments', {}, EstablishmentSchema, walk);
  }

  listProducts(): Promise<Listing<Product>> {
    return this.#list('/products', {}, ProductSchema);
  }

  /** Closes the connections its HTTP client holds. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  #list<T>(
    path: string,
    params: Record<string, string>,
    schema: z.ZodType<T>,
    walk: ListingWalk<T> = {},
  ): Promise<Listing<T>> {
    const firstUrl = new URL(`${this.#baseUrl.pathname}${path}`, this.#baseUrl);
    for (const [key, value] of Object.entries(params)) firstUrl.searchParams.set(key, value);
    return walkPages(firstUrl, (url) => this.#getPage(url, schema), {
      ...walk,
      // Without a name from the caller, the request names the listing (its query holds no secret).
      listing: walk.listing ?? `${path}${firstUrl.search}`,
      maxPages: walk.maxPages ?? this.#maxPages,
      context: (url) => this.#context(url),
      idOf: (record) => {
        const uuid = (record as { uuid?: unknown }).uuid;
        return typeof uuid === 'string' ? uuid : undefined;
      },
    });
  }

  async #getPage<T>(url: URL, schema: z.ZodType<T>): Promise<ListPage<T>> {
    const { status, body } = await this.#getJson(url);
    const parsed = parseListPage(body, schema);
    if (!parsed.ok) throw new MalformedResponseError(this.#context(url), status, parsed.problem);
    return parsed.page;
  }

  /** One logical GET: budget, attempts with retries, status mapping and JSON parsing. */
  async #getJson(url: URL): Promise<{ status: number; body: unknown }> {
    const context = this.#context(url);
    const started = this.#clock();
    for (let attempt = 1; ; attempt += 1) {
      await this.budget.acquire(context);
      const attemptStarted = this.#clock();
      try {
        const result = await this.#attempt(url, context);
        this.#onAttempt({
          endpoint: context.endpoint,
          attempt,
          status: result.status,
          durationMs: this.#since(attemptStarted),
        });
        return result;
      } catch (error) {
        const apiError = error as AdminApiError;
        const delay = apiRetryDelay(apiError, attempt, this.#since(started), this.#retry, this.#random);
        this.#onAttempt({
          endpoint: context.endpoint,
          attempt,
          status: apiError.status,
          durationMs: this.#since(attemptStarted),
          error: apiError,
          ...(delay === undefined ? {} : { retryInMs: delay }),
        });
        // Every other user of this token must hold back too, not only this request.
        if (apiError instanceof RateLimitedError) {
          await this.budget.pauseUntil(this.#clock() + (delay ?? apiError.retryAfterMs ?? 0));
        }
        if (delay === undefined) throw apiError;
        await this.#sleep(delay);
      }
    }
  }

  async #attempt(url: URL, context: RequestContext): Promise<{ status: number; body: unknown }> {
    this.#requests += 1;
    let response: TransportResponse;
    try {
      response = await this.#transport.send(url, { method: 'GET', headers: this.#headers });
    } catch (error) {
      throw errorFromTransportFailure(context, error);
    }
    const body = parseJson(response.text);
    if (response.status >= 200 && response.status < 300) {
      if (body === undefined) throw new MalformedResponseError(context, response.status, 'body is not JSON');
      return { status: response.status, body };
    }
    const waitMs = retryAfterMs(response.headers, this.#clock());
    const errorBody = ErrorBodySchema.safeParse(body);
    const details = errorBody.success ? this.#redacted(errorBody.data) : undefined;
    throw errorFromResponse(context, response.status, details, waitMs);
  }

  /** A server may echo the request (and so the token) in its error body; none of it reaches our messages. */
  #redacted(body: ErrorBody): ErrorBody {
    const clean = (text: string) => this.#transport.redact(text);
    return {
      ...body,
      ...(body.message === undefined ? {} : { message: clean(body.message) }),
      ...(body.errors === undefined
        ? {}
        : {
            errors: Object.fromEntries(
              Object.entries(body.errors).map(([field, messages]) => [clean(field), messages.map(clean)]),
            ),
          }),
    };
  }

  #context(url: URL): RequestContext {
    const path = url.pathname.startsWith(this.#baseUrl.pathname)
      ? url.pathname.slice(this.#baseUrl.pathname.length)
      : url.pathname;
    return { organization: this.#organizationLabel, endpoint: `GET ${path}${url.search}` };
  }

  #since(startMs: number): number {
    return this.#clock() - startMs;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
