// Failures through the client: one typed error per category, messages that name the organization,
// endpoint and status, and never the token.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AdminApiError,
  BadRequestError,
  ForbiddenError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UnexpectedStatusError,
  ValidationError,
} from '../../../shared/api/errors.js';
import {
  closeTestClients,
  createTestClient,
  ORGANIZATION_ID,
  ORGANIZATION_NAME,
  rejectionOf,
  TEST_TOKEN,
} from '../../support/apiClientHarness.js';
import { closedPort, closeServed, sendJson, serve } from '../../support/loopbackServer.js';

afterEach(async () => {
  await closeTestClients();
  await closeServed();
});

/** The token must not be found anywhere a person or a log could see it. */
function expectNoToken(error: Error): void {
  expect(error.message).not.toContain(TEST_TOKEN);
  expect(String(error)).not.toContain(TEST_TOKEN);
  expect(inspect(error, { depth: 6 })).not.toContain(TEST_TOKEN);
  expect(JSON.stringify(error)).not.toContain(TEST_TOKEN);
}

/** A server answering every request with `status` and an error envelope. */
function failWith(status: number, body: unknown = { success: false, message: `failure ${status}` }) {
  return serve((_req, res) => sendJson(res, status, body));
}

const statusCases = [
  [400, BadRequestError],
  [401, UnauthorizedError],
  [403, ForbiddenError],
  [404, NotFoundError],
  [422, ValidationError],
  [429, RateLimitedError],
  [500, ServerError],
  [503, ServerError],
  [409, UnexpectedStatusError],
] as const;

describe('AdminApiClient errors by status', () => {
  it.each(statusCases)(
    'turns a %i into %o naming the organization, endpoint and status',
    async (status, errorClass) => {
      const server = await failWith(status);
      const { client } = createTestClient(server.baseUrl, {
        organizationName: ORGANIZATION_NAME,
        retry: { maxAttempts: 1 },
      });
      const error = await rejectionOf(client.listOrders({ status: 'pending' }));
      expect(error).toBeInstanceOf(errorClass);
      expect(error).toBeInstanceOf(AdminApiError);
      expect((error as AdminApiError).status).toBe(status);
      expect(error.message).toContain(ORGANIZATION_NAME);
      expect(error.message).toContain('GET /orders?status=pending');
      expect(error.message).toContain(`(${status})`);
      expectNoToken(error);
    },
  );

  it('names the organization by uuid when no name is given', async () => {
    const server = await failWith(403);
    const { client } = createTestClient(server.baseUrl);
    const error = await rejectionOf(client.listOrders({ status: 'pending' }));
    expect(error.message).toMatch(new RegExp(`^${ORGANIZATION_ID}: `));
    expect((error as AdminApiError).organization).toBe(ORGANIZATION_ID);
  });

  it('names the page of a listing that failed part-way', async () => {
    const server = await serve((_req, res, hit) =>
      hit === 1
        ? sendJson(
            res,
            200,
            Array.from({ length: 25 }, () => ({})),
          )
        : sendJson(res, 401, {}),
    );
    const { client } = createTestClient(server.baseUrl);
    const error = await rejectionOf(client.listOrders({ status: 'canceled' }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as AdminApiError).endpoint).toBe('GET /orders?status=canceled&page=2');
  });

  it('names the establishments and products endpoints', async () => {
    const server = await failWith(404);
    const { client } = createTestClient(server.baseUrl);
    expect((await rejectionOf(client.listEstablishments())).message).toContain('on GET /establishments');
    expect((await rejectionOf(client.listProducts())).message).toContain('on GET /products');
  });

  it('gives a 422 the fieldErrors map from the body', async () => {
    const errors = {
      start_date: ['The start date must be a date.'],
      status: ['The selected status is invalid.'],
    };
    const server = await failWith(422, { success: false, message: 'The given data was invalid.', errors });
    const { client } = createTestClient(server.baseUrl);
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fieldErrors).toEqual(errors);
    expect(error.message).toContain('start_date: The start date must be a date.');
  });

  it('passes the server message of a 400 on', async () => {
    const server = await failWith(400, {
      success: false,
      message: 'X-SERVICE-ORGANIZATION header is required',
    });
    const { client } = createTestClient(server.baseUrl);
    expect((await rejectionOf(client.listOrders())).message).toContain(
      'X-SERVICE-ORGANIZATION header is required',
    );
  });

  it('maps a 500 with an HTML body to ServerError', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><body>Whoops</body></html>');
    });
    const { client } = createTestClient(server.baseUrl, { retry: { maxAttempts: 1 } });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toContain('server error (500)');
  });

  it.each([400, 401, 403, 404, 409, 422, 500])(
    'never repeats the token in a %i message, even when the server echoes it',
    async (status) => {
      const server = await serve((req, res) =>
        sendJson(res, status, {
          success: false,
          message: `Rejected request with Authorization: ${req.headers.authorization}`,
          errors: { [`token ${TEST_TOKEN}`]: [`value ${TEST_TOKEN} is not valid`] },
        }),
      );
      const { client } = createTestClient(server.baseUrl, { retry: { maxAttempts: 1 } });
      const error = await rejectionOf(client.listOrders());
      expect(error).toBeInstanceOf(AdminApiError);
      expectNoToken(error);
      if (error instanceof ValidationError)
        expect(JSON.stringify(error.fieldErrors)).not.toContain(TEST_TOKEN);
    },
  );

  it('keeps the rest of an echoed server message, with the token blanked out', async () => {
    const server = await serve((req, res) =>
      sendJson(res, 400, { success: false, message: `Bad header: ${req.headers.authorization}` }),
    );
    const { client } = createTestClient(server.baseUrl);
    expect((await rejectionOf(client.listOrders())).message).toContain('Bad header: Bearer [redacted]');
  });

  it('does not follow a redirect, so the token never travels to where it points', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, []));
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.baseUrl}/orders` });
      res.end();
    });
    const { client } = createTestClient(server.baseUrl);
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    expect(error.message).toContain('(302)');
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('AdminApiClient malformed responses', () => {
  it('raises MalformedResponseError for a 200 body that is not JSON, without retrying', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    const { client, time } = createTestClient(server.baseUrl);
    const error = await rejectionOf(client.listOrders({ status: 'pending' }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain('malformed response (200): body is not JSON');
    expect(error.message).toContain('GET /orders?status=pending');
    expectNoToken(error);
    expect(server.requests).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['data is an object', { success: true, message: 'OK', data: { orders: [] } }],
    ['success is a string', { success: 'true', data: [] }],
    ['meta is broken', { success: true, data: [], meta: { current_page: 'one' } }],
    ['the body is a JSON string', 'OK'],
  ])('raises MalformedResponseError when the envelope does not match (%s)', async (_name, body) => {
    const server = await serve((_req, res) => sendJson(res, 200, body));
    const { client } = createTestClient(server.baseUrl);
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain('not a list envelope');
    expectNoToken(error);
  });

  it('raises MalformedResponseError for a 200 envelope that says success: false', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, { success: false, message: 'Nope', data: [] }),
    );
    const { client } = createTestClient(server.baseUrl);
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain('success: false');
  });
});

describe('AdminApiClient network failures', () => {
  it('raises NetworkError when the connection is refused', async () => {
    const port = await closedPort();
    const { client } = createTestClient(`http://127.0.0.1:${port}/api/v1/admin`, {
      organizationName: ORGANIZATION_NAME,
      retry: { maxAttempts: 1 },
    });
    const error = await rejectionOf(client.listOrders({ status: 'pending' }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.message).toContain('connection refused: nothing listens at that address and port');
    expect(error.message).toContain(ORGANIZATION_NAME);
    expect(error.message).toContain('GET /orders?status=pending');
    expectNoToken(error);
  });

  it('raises TimeoutError when the headers do not arrive in time', async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const { client } = createTestClient(server.baseUrl, {
      timeouts: { headersMs: 100 },
      retry: { maxAttempts: 1 },
    });
    const error = await rejectionOf(client.listOrders({ status: 'pending' }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('timed out waiting for the headers');
    expect(error.message).toContain('GET /orders?status=pending');
    expect(server.requests).toHaveLength(1);
    expectNoToken(error);
  });

  it('raises TimeoutError when the body stalls', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success": true, "data": [');
      // ...and never finishes.
    });
    const { client } = createTestClient(server.baseUrl, {
      timeouts: { bodyMs: 100 },
      retry: { maxAttempts: 1 },
    });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain('timed out waiting for the body');
    expectNoToken(error);
  });

  it('raises NetworkError when the server drops the connection', async () => {
    const server = await serve((req) => req.socket.destroy());
    const { client } = createTestClient(server.baseUrl, { retry: { maxAttempts: 1 } });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(NetworkError);
    expectNoToken(error);
  });
});
