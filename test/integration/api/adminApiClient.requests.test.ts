// What every request looks like on the wire, connection reuse, and the establishments/products listings.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHttpClient } from '../../../shared/http/fetchHttpClient.js';
import type { HttpClientOptions } from '../../../shared/http/httpClient.js';
import { createUndiciHttpClient } from '../../../shared/http/undiciHttpClient.js';
import { USER_AGENT } from '../../../shared/version.js';
import {
  closeTestClients,
  createTestClient,
  ORGANIZATION_ID,
  TEST_TOKEN,
} from '../../support/apiClientHarness.js';
import { closeServed, sendJson, serve } from '../../support/loopbackServer.js';
import {
  ESTABLISHMENT_UUID,
  envelope,
  makeEstablishment,
  makeOrders,
  paginatedEnvelope,
} from '../../support/orderFactory.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

afterEach(async () => {
  await closeTestClients();
  await closeServed();
});

describe('AdminApiClient requests', () => {
  it('sends the bearer token, organization, Accept and a User-Agent naming product and version', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, envelope(makeOrders(1))));
    const { client } = createTestClient(server.baseUrl);
    await client.listOrders();
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(headers?.['x-service-organization']).toBe(ORGANIZATION_ID);
    expect(headers?.accept).toBe('application/json');
    expect(headers?.['user-agent']).toBe(USER_AGENT);
    expect(headers?.['user-agent']).toMatch(
      new RegExp(`^meal-order-notifier/${packageVersion.replace(/\./g, '\\.')}\\b`),
    );
  });

  it('sends the same headers on every page of a listing', async () => {
    const server = await serve((req, res) => {
      const page = Number(new URL(req.url ?? '', server.origin).searchParams.get('page') ?? '1');
      const path = `${server.baseUrl}/orders`;
      sendJson(
        res,
        200,
        paginatedEnvelope(makeOrders(page === 1 ? 25 : 2), { path, page, lastPage: 2, total: 27 }),
      );
    });
    const { client } = createTestClient(server.baseUrl);
    await client.listOrders();
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
      expect(request.headers['x-service-organization']).toBe(ORGANIZATION_ID);
      expect(request.headers.accept).toBe('application/json');
    }
  });

  it('never puts the token in the URL', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, envelope([])));
    const { client } = createTestClient(server.baseUrl);
    await client.listOrders({ status: 'pending' });
    expect(server.requests[0]?.url).not.toContain(TEST_TOKEN);
  });

  it('sends GET /orders under the base path with the filters by their API names', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, envelope([])));
    const { client } = createTestClient(`${server.baseUrl}/`);
    await client.listOrders({
      status: 'completed',
      establishment: ESTABLISHMENT_UUID,
      startDate: '2026-03-01',
      endDate: '2026-03-05',
      paymentMethod: 'credit',
    });
    const request = server.requests[0];
    expect(request?.method).toBe('GET');
    const url = new URL(request?.url ?? '', server.origin);
    expect(url.pathname).toBe('/api/v1/admin/orders');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      status: 'completed',
      establishment: ESTABLISHMENT_UUID,
      start_date: '2026-03-01',
      end_date: '2026-03-05',
      payment_method_type: 'credit',
    });
  });

  it('sends no query at all when no filter is given', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, envelope([])));
    const { client } = createTestClient(server.baseUrl);
    await client.listOrders();
    expect(server.requests[0]?.url).toBe('/api/v1/admin/orders');
  });

  it.each([
    ['fetch', createFetchHttpClient],
    ['undici', createUndiciHttpClient],
  ])('reuses one keep-alive connection for sequential requests (%s)', async (_name, httpClient) => {
    const server = await serve((req, res) => {
      const url = new URL(req.url ?? '', server.origin);
      const page = Number(url.searchParams.get('page') ?? '1');
      if (url.pathname.endsWith('/orders')) {
        const path = `${server.baseUrl}/orders`;
        sendJson(
          res,
          200,
          paginatedEnvelope(makeOrders(page < 3 ? 25 : 1), { path, page, lastPage: 3, total: 51 }),
        );
      } else sendJson(res, 200, envelope([makeEstablishment()]));
    });
    const { client } = createTestClient(server.baseUrl, { httpClient });
    await client.listOrders();
    await client.listEstablishments();
    await client.listOrders({ status: 'archived' });
    expect(server.requests).toHaveLength(7);
    expect(client.requestCount).toBe(7);
    expect(server.connections).toBe(1);
  });

  it('completes listings started at the same time on one client', async () => {
    const server = await serve((req, res) =>
      sendJson(
        res,
        200,
        req.url?.includes('/orders') ? envelope(makeOrders(2)) : envelope([makeEstablishment()]),
      ),
    );
    const { client } = createTestClient(server.baseUrl);
    const [orders, establishments] = await Promise.all([client.listOrders(), client.listEstablishments()]);
    expect(orders.records).toHaveLength(2);
    expect(establishments.records).toHaveLength(1);
  });

  it('counts every HTTP request, and reports each attempt', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, envelope([])));
    const { client, attempts } = createTestClient(server.baseUrl);
    await client.listOrders({ status: 'pending' });
    expect(client.requestCount).toBe(1);
    expect(attempts).toEqual([
      { endpoint: 'GET /orders?status=pending', attempt: 1, status: 200, durationMs: 0 },
    ]);
  });

  it('makes its HTTP client with its timeouts and one connection, and closes it on close', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, envelope([])));
    const made: HttpClientOptions[] = [];
    let closed = 0;
    const { client } = createTestClient(server.baseUrl, {
      timeouts: { headersMs: 2_000 },
      httpClient: (options) => {
        made.push(options);
        const http = createUndiciHttpClient(options);
        return {
          request: (url, request) => http.request(url, request),
          close: () => {
            closed += 1;
            return http.close();
          },
        };
      },
    });
    await client.listOrders();
    expect(made).toEqual([{ connectMs: 5_000, headersMs: 2_000, bodyMs: 15_000, maxConnections: 1 }]);
    await client.close();
    expect(closed).toBe(1);
  });
});

describe('AdminApiClient listEstablishments', () => {
  it('lists establishments from GET /establishments in the envelope', async () => {
    const records = [makeEstablishment({ menu_closing_time: '09:30:00' }), makeEstablishment()];
    const server = await serve((_req, res) => sendJson(res, 200, envelope(records)));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listEstablishments();
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/admin/establishments']);
    expect(listing.records).toEqual(records);
    expect(listing).toMatchObject({ complete: true, consistent: true, pages: 1, total: undefined });
  });

  it('takes an unpaged establishments listing longer than a page whole, without asking for page 2', async () => {
    // The spec's establishments sample has no pagination keys: a server that does not page this endpoint
    // answers every record at once, and ignores `page`.
    const records = Array.from({ length: 30 }, () => makeEstablishment());
    const server = await serve((_req, res) => sendJson(res, 200, envelope(records)));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listEstablishments();
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/admin/establishments']);
    expect(listing.records).toHaveLength(30);
    expect(listing).toMatchObject({ complete: true, consistent: true, pages: 1, problems: [] });
  });

  it('skips a broken establishment and marks the listing incomplete', async () => {
    const broken = { ...makeEstablishment(), working_days: [9] };
    const server = await serve((_req, res) => sendJson(res, 200, envelope([makeEstablishment(), broken])));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listEstablishments();
    expect(listing.records).toHaveLength(1);
    expect(listing.complete).toBe(false);
    expect(listing.skipped).toEqual([
      { index: 1, uuid: broken.uuid, problem: expect.stringContaining('working_days'), page: 1 },
    ]);
  });
});

describe('AdminApiClient listProducts', () => {
  it('lists products from GET /products, keeping each object whole', async () => {
    const products = [
      { uuid: 'p-1', name: 'Soup', class_prices: [{ class: '3B', amount: '300' }], restricted_to: ['3B'] },
      { uuid: 'p-2', name: 'Bread' },
    ];
    const server = await serve((_req, res) => sendJson(res, 200, envelope(products)));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listProducts();
    expect(server.requests[0]?.url).toBe('/api/v1/admin/products');
    expect(listing.records).toEqual(products);
    expect(listing.complete).toBe(true);
  });

  it('skips a product that is not an object', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, envelope([{ uuid: 'p-1' }, 'oops', null])));
    const { client } = createTestClient(server.baseUrl);
    const listing = await client.listProducts();
    expect(listing.records).toEqual([{ uuid: 'p-1' }]);
    expect(listing.skipped.map((record) => record.index)).toEqual([1, 2]);
    expect(listing.complete).toBe(false);
  });
});
