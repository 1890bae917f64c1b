// A real node:http server on 127.0.0.1 (port 0) that records every request and counts TCP connections.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/admin/orders?status=pending`. */
  url: string;
  headers: IncomingHttpHeaders;
}

/** Answers one request; `hit` is its 1-based position among all requests this server received. */
export type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

export interface LoopbackServer {
  /** e.g. `http://127.0.0.1:43210` */
  readonly origin: string;
  /** `${origin}/api/v1/admin` */
  readonly baseUrl: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** The `page` query parameter of every request, in order (undefined when absent). */
  pagesRequested(): Array<string | undefined>;
  close(): Promise<void>;
}

export async function startLoopbackServer(handler: Handler = notFound): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    handler(req, res, requests.length);
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v1/admin`,
    port,
    requests,
    get connections() {
      return connections;
    },
    pagesRequested: () =>
      requests.map((request) => new URL(request.url, origin).searchParams.get('page') ?? undefined),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = await startLoopbackServer();
  const { port } = server;
  await server.close();
  return port;
}

function notFound(_req: IncomingMessage, res: ServerResponse): void {
  sendJson(res, 404, { success: false, message: 'Not found' });
}

const served: LoopbackServer[] = [];

/** Starts a loopback server that `closeServed` will close: call it from a test's afterEach. */
export async function serve(handler?: Handler): Promise<LoopbackServer> {
  const server = await startLoopbackServer(handler);
  served.push(server);
  return server;
}

export async function closeServed(): Promise<void> {
  await Promise.all(served.splice(0).map((server) => server.close()));
}
