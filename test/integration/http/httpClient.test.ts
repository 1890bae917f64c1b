// The HTTP port's two adapters, Node's fetch (the Lambdas') and undici (the CLI's), held to one contract
// against a real loopback server: what a response carries, redirects left alone, the headers and body
// timeouts and a refused connection failing with the same codes, the caller's abort, connection reuse.
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHttpClient } from '../../../shared/http/fetchHttpClient.js';
import type { HttpClient, HttpClientFactory, HttpClientOptions } from '../../../shared/http/httpClient.js';
import { createUndiciHttpClient } from '../../../shared/http/undiciHttpClient.js';
import { closedPort, closeServed, sendJson, serve } from '../../support/loopbackServer.js';

const TIMEOUTS = { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000 };

const open: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  await closeServed();
});

describe.each<[string, HttpClientFactory]>([
  ['fetch', createFetchHttpClient],
  ['undici', createUndiciHttpClient],
])('the %s HTTP client', (_name, create) => {
  function client(options: Partial<HttpClientOptions> = {}): HttpClient {
    const made = create({ ...TIMEOUTS, ...options });
    open.push(made);
    return made;
  }

  async function rejection(promise: Promise<unknown>): Promise<Error & { code?: unknown }> {
    try {
      await promise;
    } catch (error) {
      return error as Error & { code?: unknown };
    }
    throw new Error('expected a rejection');
  }

  it('sends the method, headers and body, and gives the status, lower-case headers and text', async () => {
    let received = '';
    const server = await serve((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        received += chunk;
      });
      req.on('end', () => sendJson(res, 201, { ok: true }, { 'X-Request-Id': 'r-1' }));
    });
    const response = await client().request(new URL(`${server.origin}/hook?a=1`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'test-agent' },
      body: '{"id":"é"}',
    });
    expect(response.status).toBe(201);
    expect(response.headers['x-request-id']).toBe('r-1');
    expect(await response.body.text()).toBe('{"ok":true}');
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/hook?a=1' });
    expect(server.requests[0]?.headers['user-agent']).toBe('test-agent');
    expect(received).toBe('{"id":"é"}');
  });

  it('hands a redirect back instead of following it', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    });
    const response = await client().request(new URL(server.origin), { method: 'GET', headers: {} });
    await response.body.dump();
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('http://127.0.0.1:9/elsewhere');
    expect(server.requests).toHaveLength(1);
  });

  it('fails with UND_ERR_HEADERS_TIMEOUT when the headers do not come in time', async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const request = client({ headersMs: 100 }).request(new URL(server.origin), {
      method: 'GET',
      headers: {},
    });
    expect((await rejection(request)).code).toBe('UND_ERR_HEADERS_TIMEOUT');
  });

  it('fails the body read with UND_ERR_BODY_TIMEOUT when the body goes silent', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('the start, and never the end');
    });
    const response = await client({ bodyMs: 100 }).request(new URL(server.origin), {
      method: 'GET',
      headers: {},
    });
    expect((await rejection(response.body.text())).code).toBe('UND_ERR_BODY_TIMEOUT');
  });

  it('fails with ECONNREFUSED when nothing listens', async () => {
    const port = await closedPort();
    const request = client().request(new URL(`http://127.0.0.1:${port}/`), { method: 'GET', headers: {} });
    expect((await rejection(request)).code).toBe('ECONNREFUSED');
  });

  it("rejects with the caller's abort reason", async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const controller = new AbortController();
    const request = client().request(new URL(server.origin), {
      method: 'GET',
      headers: {},
      signal: controller.signal,
    });
    const reason = new Error('caller gave up');
    controller.abort(reason);
    expect(await rejection(request)).toBe(reason);
  });

  it('reuses the connection once a body is read or dumped', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const http = client({ maxConnections: 1 });
    for (const read of ['text', 'dump', 'text'] as const) {
      const response = await http.request(new URL(server.origin), { method: 'GET', headers: {} });
      await response.body[read]();
    }
    expect(server.requests).toHaveLength(3);
    expect(server.connections).toBe(1);
  });

  it('reads a body chunk by chunk, and stopping early gives the response up', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a'.repeat(1_000));
      // The rest never comes; the reader stops before it would wait for it.
    });
    const response = await client().request(new URL(server.origin), { method: 'GET', headers: {} });
    let read = 0;
    for await (const chunk of response.body) {
      read += chunk.length;
      if (read >= 1_000) break;
    }
    expect(read).toBe(1_000);
  });
});
