// The HTTP transport the Admin API client and both senders share, over each adapter of the port against a
// real loopback server: the notifier's user agent, the body read as the caller asks, every failure a typed
// error of the phase that failed, and nothing of a declared secret or the URL's path and query in them.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHttpClient } from '../../../shared/http/fetchHttpClient.js';
import type { HttpClientFactory } from '../../../shared/http/httpClient.js';
import {
  HttpNetworkError,
  HttpTimeoutError,
  type HttpTransportError,
} from '../../../shared/http/httpErrors.js';
import { type BodyRead, HttpTransport, type HttpTransportOptions } from '../../../shared/http/transport.js';
import { createUndiciHttpClient } from '../../../shared/http/undiciHttpClient.js';
import { USER_AGENT } from '../../../shared/version.js';
import { closedPort, closeServed, sendJson, serve } from '../../support/loopbackServer.js';

const TIMEOUTS = { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000 };
const TOKEN = 'tok_7c1e0d5b9a2f';

const open: HttpTransport[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((transport) => transport.close()));
  await closeServed();
});

describe.each<[string, HttpClientFactory]>([
  ['fetch', createFetchHttpClient],
  ['undici', createUndiciHttpClient],
])('the HTTP transport over %s', (_name, httpClient) => {
  function transport(options: Partial<HttpTransportOptions> = {}): HttpTransport {
    const made = new HttpTransport({ timeouts: TIMEOUTS, httpClient, ...options });
    open.push(made);
    return made;
  }

  async function failure(promise: Promise<unknown>): Promise<HttpTransportError> {
    try {
      await promise;
    } catch (error) {
      return error as HttpTransportError;
    }
    throw new Error('expected a rejection');
  }

  it("sends the notifier's user agent unless told otherwise, and gives the status, headers and whole body", async () => {
    const server = await serve((_req, res) => sendJson(res, 201, { ok: true }, { 'X-Request-Id': 'r-1' }));
    const http = transport();
    const response = await http.send(new URL(`${server.origin}/orders`), { method: 'GET', headers: {} });
    await http.send(new URL(server.origin), { method: 'GET', headers: { 'user-agent': 'probe/1' } });
    expect(response).toEqual({
      status: 201,
      headers: expect.objectContaining({ 'x-request-id': 'r-1' }),
      text: '{"ok":true}',
    });
    expect(server.requests.map((request) => request.headers['user-agent'])).toEqual([USER_AGENT, 'probe/1']);
  });

  it('fails with an HttpNetworkError that names the origin and the code, nothing of the path or query', async () => {
    const port = await closedPort();
    const url = new URL(`http://127.0.0.1:${port}/hooks/${TOKEN}?token=${TOKEN}`);
    const error = await failure(transport().send(url, { method: 'POST', headers: {}, body: '{}' }));
    expect(error).toBeInstanceOf(HttpNetworkError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', origin: url.origin });
    expect(error.message).toBe(`cannot reach ${url.origin}: ECONNREFUSED`);
    expect(inspect(error, { depth: 10 })).not.toContain(TOKEN);
  });

  it('fails with an HttpTimeoutError for headers that do not come in time', async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const http = transport({ timeouts: { ...TIMEOUTS, headersMs: 100 } });
    const error = await failure(http.send(new URL(server.origin), { method: 'GET', headers: {} }));
    expect(error).toBeInstanceOf(HttpTimeoutError);
    expect(error).toMatchObject({ phase: 'headers', timeoutMs: 100, code: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('fails with an HttpTimeoutError for a body that goes silent while all of it is read', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
    });
    const http = transport({ timeouts: { ...TIMEOUTS, bodyMs: 100 } });
    const error = await failure(http.send(new URL(server.origin), { method: 'GET', headers: {} }));
    expect(error).toMatchObject({ phase: 'body', code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('bounds the attempt as a whole: a body that trickles in, never silent for long, still times out', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(drip));
    });
    const http = transport({ attemptTimeoutMs: 200 });
    const error = await failure(http.send(new URL(server.origin), { method: 'GET', headers: {} }));
    expect(error).toBeInstanceOf(HttpTimeoutError);
    expect(error).toMatchObject({ phase: 'attempt', timeoutMs: 200 });
  });

  it('reads an excerpt with the declared secrets cut, keeping what came before the body broke off', async () => {
    const server = await serve((req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.write(`failed for ${req.url} (${TOKEN})`);
      // The rest never comes.
    });
    const url = new URL(`${server.origin}/hooks?token=${TOKEN}`);
    const http = transport({
      timeouts: { ...TIMEOUTS, bodyMs: 100 },
      secrets: [{ value: url.search, mask: '?…' }, TOKEN],
    });
    const response = await http.send(url, { method: 'POST', headers: {}, read: { excerptBytes: 1_000 } });
    expect(response).toMatchObject({ status: 500, text: 'failed for /hooks?… (…)' });
  });

  it('reads no more of an excerpt than the bytes asked for', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('x'.repeat(100_000));
    });
    const http = transport();
    const response = await http.send(new URL(server.origin), {
      method: 'GET',
      headers: {},
      read: { excerptBytes: 64 },
    });
    expect(response.text).toBe('x'.repeat(64));
  });

  it('drains a discarded body, so the next request reuses the connection', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const http = transport({ maxConnections: 1 });
    for (const read of ['discard', 'text', 'discard'] as const) {
      const response = await http.send(new URL(server.origin), { method: 'GET', headers: {}, read });
      expect(response.text).toBe(read === 'text' ? '{"ok":true}' : '');
    }
    expect(server.requests).toHaveLength(3);
    expect(server.connections).toBe(1);
  });

  it('chooses how much to read by the status', async () => {
    const server = await serve((_req, res, hit) => sendJson(res, hit === 1 ? 200 : 503, { hit }));
    const http = transport();
    const read = (status: number): BodyRead => (status === 200 ? 'discard' : { excerptBytes: 1_000 });
    const first = await http.send(new URL(server.origin), { method: 'GET', headers: {}, read });
    const second = await http.send(new URL(server.origin), { method: 'GET', headers: {}, read });
    expect([first.text, second.text]).toEqual(['', '{"hit":2}']);
  });

  it('redacts what it was told is secret, and only that', () => {
    const http = transport({ secrets: [{ value: TOKEN, mask: '[redacted]' }] });
    expect(http.redact(`Bearer ${TOKEN} rejected`)).toBe('Bearer [redacted] rejected');
  });
});
