// A minimal Slack Web API on 127.0.0.1 for the board's tests: chat.postMessage and chat.update with ts,
// threads and reply_broadcast, a bearer token it checks, messages a test deletes (message_not_found on
// the next update), answers a test scripts (a 429 with Retry-After, invalid_auth, not_in_channel) and
// the record of every call.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type LoopbackServer, startLoopbackServer } from './loopbackServer.js';

export interface StandInMessage {
  ts: string;
  channel: string;
  text: string;
  blocks: unknown[];
  threadTs?: string;
  broadcast: boolean;
  /** Times chat.update changed it. */
  edits: number;
}

export interface StandInCall {
  method: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface ScriptedAnswer {
  status?: number;
  error?: string;
  retryAfterSeconds?: number;
}

export interface SlackWebApiStandIn {
  /** e.g. http://127.0.0.1:43210/api, for a subscriber's apiUrl. */
  readonly apiUrl: string;
  readonly token: string;
  readonly calls: StandInCall[];
  readonly messages: Map<string, StandInMessage>;
  /** Top-level messages, in the order posted. */
  topLevel(): StandInMessage[];
  /** The replies in a thread, in the order posted. */
  thread(ts: string): StandInMessage[];
  /** The next call of `method` gets this answer instead. */
  scriptNext(method: string, answer: ScriptedAnswer): void;
  /** As if someone deleted the message in Slack. */
  deleteMessage(ts: string): void;
  /** Every call is refused with this error until cleared (undefined). */
  refuseAll(error: string | undefined): void;
  close(): Promise<void>;
}

export async function startSlackWebApiStandIn(token = 'xoxb-test-token'): Promise<SlackWebApiStandIn> {
  const calls: StandInCall[] = [];
  const messages = new Map<string, StandInMessage>();
  const scripted = new Map<string, ScriptedAnswer[]>();
  let refusing: string | undefined;
  let sequence = 0;

  const answer = (
    res: ServerResponse,
    status: number,
    body: object,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = (req.url ?? '').replace(/^\/api\//, '');
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    calls.push({ method, authorization: req.headers.authorization, body });
    const next = scripted.get(method)?.shift();
    if (next) {
      const headers: Record<string, string> =
        next.retryAfterSeconds === undefined ? {} : { 'retry-after': String(next.retryAfterSeconds) };
      return answer(res, next.status ?? 200, { ok: false, error: next.error ?? 'ratelimited' }, headers);
    }
    if (req.headers.authorization !== `Bearer ${token}`)
      return answer(res, 200, { ok: false, error: 'invalid_auth' });
    if (refusing) return answer(res, 200, { ok: false, error: refusing });
    if (method === 'chat.postMessage') {
      sequence += 1;
      const ts = `${1_700_000_000 + sequence}.000100`;
      messages.set(ts, {
        ts,
        channel: String(body.channel),
        text: String(body.text ?? ''),
        blocks: (body.blocks as unknown[]) ?? [],
        ...(typeof body.thread_ts === 'string' ? { threadTs: body.thread_ts } : {}),
        broadcast: body.reply_broadcast === true,
        edits: 0,
      });
      return answer(res, 200, { ok: true, channel: body.channel, ts });
    }
    if (method === 'chat.update') {
      const message = messages.get(String(body.ts));
      if (!message) return answer(res, 200, { ok: false, error: 'message_not_found' });
      message.text = String(body.text ?? '');
      message.blocks = (body.blocks as unknown[]) ?? [];
      message.edits += 1;
      return answer(res, 200, { ok: true, channel: body.channel, ts: message.ts });
    }
    return answer(res, 200, { ok: false, error: 'unknown_method' });
  };

  const server: LoopbackServer = await startLoopbackServer((req, res) => {
    handle(req, res).catch(() => answer(res, 500, { ok: false, error: 'internal_error' }));
  });
  return {
    apiUrl: `${server.origin}/api`,
    token,
    calls,
    messages,
    topLevel: () => [...messages.values()].filter((message) => message.threadTs === undefined),
    thread: (ts) => [...messages.values()].filter((message) => message.threadTs === ts),
    scriptNext: (method, scriptedAnswer) => {
      const queue = scripted.get(method) ?? [];
      queue.push(scriptedAnswer);
      scripted.set(method, queue);
    },
    deleteMessage: (ts) => {
      messages.delete(ts);
    },
    refuseAll: (error) => {
      refusing = error;
    },
    close: () => server.close(),
  };
}
