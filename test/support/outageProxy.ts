// A loopback proxy in front of the simulator with an outage switch: while down, every connection is cut
// before anything is answered, as when the API cannot be reached; once up, requests pass through.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OutageProxy {
  baseUrl: string;
  /** Whether connections are cut. */
  down: boolean;
  close(): Promise<void>;
}

export async function startOutageProxy(target: string, options: { down: boolean }): Promise<OutageProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  const proxy = {
    baseUrl: '',
    down: options.down,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    if (proxy.down) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.baseUrl = `http://127.0.0.1:${port}${upstream.pathname}`;
  return proxy;
}
