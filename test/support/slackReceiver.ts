// A Slack-like incoming-webhook endpoint on 127.0.0.1 (port 0): records every message posted to any
// `/services/…` path and answers from a script — `ok`, or Slack's error strings with their statuses, or
// never (a hang) — so the sender's classification runs against real HTTP.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackAnswer {
  status: number;
  /** Slack answers in plain text: `ok`, or an error string such as `invalid_payload`. */
  body: string;
  headers?: Record<string, string>;
}

/** A scripted answer, or `hang`: read the request and never answer. */
export type SlackScript = SlackAnswer | 'hang';

export const SLACK_OK: SlackAnswer = { status: 200, body: 'ok' };

/** The answers Slack documents for incoming webhooks. */
export const SLACK_ANSWERS = {
  ok: SLACK_OK,
  rateLimited: (retryAfterSeconds: number): SlackAnswer => ({
    status: 429,
    body: 'rate_limited',
    headers: { 'retry-after': String(retryAfterSeconds) },
  }),
  serverError: { status: 500, body: 'rollup_error' },
  invalidPayload: { status: 400, body: 'invalid_payload' },
  invalidBlocks: { status: 400, body: 'invalid_blocks' },
  actionProhibited: { status: 403, body: 'action_prohibited' },
  noService: { status: 404, body: 'no_service' },
  channelIsArchived: { status: 410, body: 'channel_is_archived' },
} satisfies Record<string, SlackScript | ((...args: never[]) => SlackScript)>;

export interface ReceivedSlackMessage {
  /** e.g. `/services/T000/B001/secret` */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  payload: unknown;
}

export interface SlackReceiver {
  readonly origin: string;
  /** A webhook URL on this receiver; different names give different URLs. */
  webhookUrl(name?: string): string;
  readonly received: ReceivedSlackMessage[];
  /** Answers for the next requests, in order; once used up, every request gets `ok`. */
  script(...answers: SlackScript[]): void;
  close(): Promise<void>;
}

export async function startSlackReceiver(): Promise<SlackReceiver> {
  const received: ReceivedSlackMessage[] = [];
  const queue: SlackScript[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', headers: req.headers, payload: parseJson(text) });
      const answer = queue.shift() ?? SLACK_OK;
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    webhookUrl: (name = 'kitchen') => `${origin}/services/T0TEST/B0${name.toUpperCase()}/sEcReT-${name}-x9Q2`,
    received,
    script: (...answers) => {
      queue.push(...answers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
