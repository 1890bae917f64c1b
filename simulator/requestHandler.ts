// The HTTP front of the simulator: routing (404, 405), then the spec's checks in order (400 missing
// organization header, 401 token, 429 rate limit, 403 organization, injected 5xx), then the route.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessControl } from './accessControl.js';
import { type ApiResponse, failure } from './apiResponse.js';
import type { FaultInjector } from './faults.js';
import type { PickupDateWriter } from './pickupFormat.js';
import type { SlidingWindowRateLimiter } from './rateLimiter.js';
import type { RequestLog } from './requestLog.js';
import { listEstablishments } from './routes/establishments.js';
import { listOrders, type OrdersShape } from './routes/orders.js';
import { listProducts } from './routes/products.js';
import type { SimulatedOrganization } from './simulatedOrganization.js';

export const API_PREFIX = '/api/v1/admin';
const ORGANIZATION_HEADER = 'x-service-organization';

type RouteName = 'orders' | 'establishments' | 'products';
const ROUTES: ReadonlySet<string> = new Set<RouteName>(['orders', 'establishments', 'products']);

const SERVER_ERROR_MESSAGES: Record<number, string> = {
  502: 'Bad Gateway.',
  503: 'Service Unavailable.',
  504: 'Gateway Timeout.',
};

export interface RequestHandlerDeps {
  clock: () => number;
  delay: (ms: number) => Promise<void>;
  /** `host:port` the server listens on, for requests that arrive without a usable Host header. */
  listenHost: () => string;
  organizations: ReadonlyMap<string, SimulatedOrganization>;
  access: AccessControl;
  rateLimiter: SlidingWindowRateLimiter;
  faults: FaultInjector;
  requestLog: RequestLog;
  pickupDates: PickupDateWriter;
  ordersShape: OrdersShape;
}

export function createRequestHandler(
  deps: RequestHandlerDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      if (!res.headersSent) write(res, failure(500, 'Server Error.'));
      else res.destroy(error instanceof Error ? error : undefined);
    });
  };
}

async function handle(deps: RequestHandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrivedAt = deps.clock();
  // Bodies mean nothing to a read-only API; draining them keeps the connection usable.
  req.resume();
  const latencyMs = deps.faults.settings.latencyMs;
  if (latencyMs > 0) await deps.delay(latencyMs);
  const url = requestUrl(req, deps.listenHost());
  const method = req.method ?? 'GET';
  let response: ApiResponse;
  try {
    response = respond(deps, req, method, url, arrivedAt);
  } catch {
    response = failure(500, 'Server Error.');
  }
  deps.requestLog.record({
    at: arrivedAt,
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    status: response.status,
    headers: flatHeaders(req),
  });
  write(res, response);
}

function respond(
  deps: RequestHandlerDeps,
  req: IncomingMessage,
  method: string,
  url: URL,
  arrivedAt: number,
): ApiResponse {
  const route = matchRoute(url.pathname);
  if (!route) return failure(404, `The route ${url.pathname.replace(/^\//, '')} could not be found.`);
  if (method !== 'GET') {
    return failure(
      405,
      `The ${method} method is not supported for route ${url.pathname.replace(/^\//, '')}. Supported methods: GET.`,
      { headers: { Allow: 'GET' } },
    );
  }

  const organizationId = headerValue(req, ORGANIZATION_HEADER);
  if (!organizationId) return failure(400, 'The X-SERVICE-ORGANIZATION header is required.');

  const token = bearerToken(headerValue(req, 'authorization'));
  if (!token || !deps.access.isKnownToken(token)) return failure(401, 'Unauthenticated.');

  const limit = deps.rateLimiter.limit;
  const forcedRetryAfter = deps.faults.takeForced429();
  if (forcedRetryAfter !== undefined) {
    return tooManyAttempts(limit, forcedRetryAfter, arrivedAt + forcedRetryAfter * 1000);
  }
  const decision = deps.rateLimiter.consume(token, arrivedAt);
  if (!decision.allowed) return tooManyAttempts(limit, decision.retryAfterSeconds, decision.resetAtMs);
  const rateHeaders = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
  };

  const organization = deps.organizations.get(organizationId);
  if (!organization || !deps.access.mayRead(token, organizationId)) {
    return withHeaders(failure(403, 'This action is unauthorized.'), rateHeaders);
  }

  const injectedStatus = deps.faults.takeServerError();
  if (injectedStatus !== undefined) {
    return withHeaders(
      failure(injectedStatus, SERVER_ERROR_MESSAGES[injectedStatus] ?? 'Server Error.'),
      rateHeaders,
    );
  }

  return withHeaders(routeResponse(deps, route, organization, url), rateHeaders);
}

function routeResponse(
  deps: RequestHandlerDeps,
  route: RouteName,
  organization: SimulatedOrganization,
  url: URL,
): ApiResponse {
  if (route === 'establishments') return listEstablishments(organization.world);
  if (route === 'products') return listProducts(organization.world);
  const linkOrigin = deps.faults.settings.linkOrigin ?? url.origin;
  return listOrders({
    world: organization.world,
    query: url.searchParams,
    listingPath: new URL(url.pathname, linkOrigin).href,
    shape: deps.ordersShape,
    pickupDates: deps.pickupDates,
  });
}

function tooManyAttempts(limit: number, retryAfterSeconds: number, resetAtMs: number): ApiResponse {
  return failure(429, 'Too Many Attempts.', {
    headers: {
      'Retry-After': String(retryAfterSeconds),
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Math.ceil(resetAtMs / 1000)),
    },
  });
}

function matchRoute(pathname: string): RouteName | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (!path.startsWith(`${API_PREFIX}/`)) return undefined;
  const name = path.slice(API_PREFIX.length + 1);
  return ROUTES.has(name) ? (name as RouteName) : undefined;
}

function requestUrl(req: IncomingMessage, listenHost: string): URL {
  const target = req.url ?? '/';
  // Concatenated rather than resolved, so a path like `//host/x` stays a path on this server.
  return URL.parse(`http://${req.headers.host ?? listenHost}${target}`) ?? new URL(`http://${listenHost}/`);
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() || undefined;
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function withHeaders(response: ApiResponse, headers: Record<string, string>): ApiResponse {
  return { ...response, headers: { ...headers, ...response.headers } };
}

function write(res: ServerResponse, response: ApiResponse): void {
  const body = JSON.stringify(response.body);
  res.writeHead(response.status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(body),
    ...response.headers,
  });
  res.end(body);
}
