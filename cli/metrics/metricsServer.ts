// The runner's HTTP endpoint for a monitor and a process manager (`poll --metrics-port`): GET /metrics in
// the Prometheus text format, and GET /healthz, 200 "ok" or 503 "unhealthy" with one line per problem (the
// verdict `meal-notifier status` exits with). Loopback unless --metrics-host says otherwise: the metrics
// name organizations and subscribers, and a local agent or reverse proxy is the usual scraper.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Health } from '../../shared/operations/healthVerdict.js';
import { MetricsListenError } from '../errors.js';

export interface MetricsSource {
  render(): Promise<string>;
  readonly contentType: string;
  health(): Promise<Health>;
}

export interface MetricsEndpoint {
  /** e.g. `http://127.0.0.1:9464`, with the port actually bound (for port 0, the one the system chose). */
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_METRICS_HOST = '127.0.0.1';

export async function startMetricsServer(
  source: MetricsSource,
  where: { host: string; port: number },
): Promise<MetricsEndpoint> {
  const server = createServer((req, res) => {
    void answer(source, req, res).catch((error) => {
      // The state file failing mid-scrape: said in one line, and the runner goes on.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`error: ${(error as Error)?.message ?? String(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new MetricsListenError(where.host, where.port, whyNotListening(error), { cause: error })),
    );
    server.listen(where.port, where.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(source: MetricsSource, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path !== '/metrics' && path !== '/healthz') {
    res
      .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      .end('not found: try /metrics or /healthz\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
    return;
  }
  let status = 200;
  let type = 'text/plain; charset=utf-8';
  let body: string;
  if (path === '/metrics') {
    body = await source.render();
    type = source.contentType;
  } else {
    const health = await source.health();
    status = health.healthy ? 200 : 503;
    body = health.healthy ? 'ok\n' : ['unhealthy', ...health.problems].join('\n').concat('\n');
  }
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function whyNotListening(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return 'the port is in use (another runner?); choose another --metrics-port';
    case 'EACCES':
      return 'not allowed (ports below 1024 need privileges); choose another --metrics-port';
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return 'no such address on this machine; check --metrics-host';
    default:
      return error.message;
  }
}
