// A loopback proxy that holds every request while its gate is shut and sends the held ones on, in order,
// when it opens: a test knows a function is mid-call (here: its Slack post on the way) and lets another
// run meanwhile, without guessing at timing. Unlike holdingProxy.ts, the held requests are answered in the
// end, so the function holding them carries on as it would after a slow answer.
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { type LoopbackServer, startLoopbackServer } from './loopbackServer.js';

export interface GateProxy {
  /** For the client's base URL: the target's path is kept after it. */
  readonly baseUrl: string;
  /** Resolves with the path of the first request held since the gate was shut (at once if there is one). */
  firstHeld(): Promise<string>;
  /** How many requests are held now. */
  heldCount(): number;
  /** Holds every request from now on. */
  shut(): void;
  /** Sends the held requests on, and every later one. */
  open(): void;
  close(): Promise<void>;
}

export async function startGateProxy(target: string): Promise<GateProxy> {
  const upstream = new URL(target);
  let shut = false;
  let held: { path: string; forward: () => void }[] = [];
  let waiting: ((path: string) => void) | undefined;
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const outgoing = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `${upstream.pathname.replace(/\/$/, '')}${req.url ?? ''}`,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    outgoing.on('error', () => res.destroy());
    outgoing.end(body);
  };
  const server: LoopbackServer = await startLoopbackServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!shut) {
        forward(req, res, body);
        return;
      }
      const path = req.url ?? '';
      held.push({ path, forward: () => forward(req, res, body) });
      waiting?.(path);
      waiting = undefined;
    });
  });
  return {
    baseUrl: server.origin,
    firstHeld: () => {
      const [first] = held;
      if (first) return Promise.resolve(first.path);
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    heldCount: () => held.length,
    shut: () => {
      shut = true;
    },
    open: () => {
      shut = false;
      const released = held;
      held = [];
      for (const request of released) request.forward();
    },
    close: () => server.close(),
  };
}
