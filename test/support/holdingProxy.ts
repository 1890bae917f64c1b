// A loopback proxy in front of the simulator that, while holding, never answers: a runner's request sits
// in flight for as long as a test wants, so the test knows the runner is mid-cycle (its lease taken)
// without guessing at timing. Held requests are told of as they arrive; once let go, every later request
// passes through.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldingProxy {
  baseUrl: string;
  /** Resolves with the first held request's URL (at once if one is already held). */
  firstHeld(): Promise<URL>;
  /** Passes every request from now on through to the simulator; held ones stay unanswered. */
  letGo(): void;
  close(): Promise<void>;
}

export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const upstream = new URL(target);
  let holding = true;
  let held: URL | undefined;
  const waiters: Array<(url: URL) => void> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream);
    if (holding) {
      held ??= url;
      for (const wake of waiters.splice(0)) wake(url);
      // The runner may be killed while waiting: its socket closes and nothing is answered.
      res.on('error', () => {});
      return;
    }
    forward(req, upstream, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    firstHeld: () => (held ? Promise.resolve(held) : new Promise((resolve) => waiters.push(resolve))),
    letGo: () => {
      holding = false;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function forward(req: IncomingMessage, upstream: URL, onAnswer: (answer: IncomingMessage) => void): void {
  const outgoing = httpRequest(
    { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
    onAnswer,
  );
  req.pipe(outgoing);
}
