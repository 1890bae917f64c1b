// A loopback proxy in front of the simulator that rewrites the JSON answers a test picks, so a real client
// can be shown hostile listings (a malformed record, a uuid twice, an empty page that links on, a total
// that moves) built from the simulator's real pages.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RewritingProxy {
  baseUrl: string;
  close(): Promise<void>;
}

/** Returns the body to send instead, or undefined to pass the simulator's answer through unchanged. */
export type Rewrite = (url: URL, body: unknown) => unknown;

export async function startRewritingProxy(target: string, rewrite: Rewrite): Promise<RewritingProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = answer.statusCode ?? 502;
          const rewritten = status === 200 ? rewrite(url, JSON.parse(text)) : undefined;
          const body = rewritten === undefined ? text : JSON.stringify(rewritten);
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
          delete headers['transfer-encoding'];
          res.writeHead(status, headers).end(body);
        });
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
