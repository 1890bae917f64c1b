// A loopback proxy in front of the simulator that answers 500 to the requests a test picks, so one listing
// can keep failing while the others succeed.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FailingProxy {
  baseUrl: string;
  close(): Promise<void>;
}

/** A loopback proxy to the simulator that answers 500 to the requests `fails` picks. */
export async function startFailingProxy(target: string, fails: (url: URL) => boolean): Promise<FailingProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream);
    if (fails(url)) {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end('{"success":false,"message":"Server Error."}');
      return;
    }
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
