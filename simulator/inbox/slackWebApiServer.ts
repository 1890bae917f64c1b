// A stand-in for Slack's Web API on 127.0.0.1, for trying the Slack app subscriber (the kitchen's board)
// without a Slack workspace: chat.postMessage, chat.update, auth.test and conversations.info under
// `<apiUrl>/<method>`, as Slack's docs describe them: a bot token as `Authorization: Bearer` (or a
// form's `token`), JSON or form-encoded arguments, HTTP 200 with `{ ok: false, error }` for an API error,
// HTTP 429 with Retry-After past a rate limit (slackRateLimits.ts). The workspace behind it
// (slackWorkspace.ts) is the tests' and the operator's handle on it; the same controls are served as
// JSON under /_simulator/slack/, a path Slack's API does not use, for a person with curl.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ForcedRateLimit, type SlackMethodLimit, SlackRateLimits } from './slackRateLimits.js';
import { DEFAULT_SLACK_CHANNEL, type SlackAnswer, SlackWorkspace } from './slackWorkspace.js';

/** One call as the stand-in saw it, for tests to read (never the token). */
export interface SlackApiCall {
  method: string;
  at: number;
  /** 200, 404 or 429. */
  status: number;
  /** Slack's error code when `ok` was false. */
  error?: string;
  /** A 429 answered to a call that came before an earlier Retry-After was over. */
  early?: boolean;
  /** The arguments as parsed (channel, ts, text, blocks, thread_ts …), token left out. */
  args: Record<string, unknown>;
}

export interface SlackWebApiStandIn {
  /** For the subscriber's `apiUrl`: method names are appended to it. */
  readonly apiUrl: string;
  /** The bot token it issued first, for the subscriber's `botToken` secret. */
  readonly token: string;
  /** The channel id the board goes to. */
  readonly channel: string;
  /** Where the controls are served: `<controlUrl>/delete`, `/rate-limit`, … */
  readonly controlUrl: string;
  readonly workspace: SlackWorkspace;
  /** The next calls (of a method, or any) are answered 429 with this Retry-After. */
  forceRateLimit(forced: ForcedRateLimit): void;
  /** Every call so far, oldest first. */
  calls(): SlackApiCall[];
  close(): Promise<void>;
}

export interface SlackWebApiOptions {
  /** The clock for ts, rate limits and holds. @default Date.now */
  now?: () => number;
  /** Slack's limits per method, or false for none. @default SLACK_METHOD_LIMITS */
  rateLimits?: Readonly<Record<string, SlackMethodLimit>> | false;
  /** Port on 127.0.0.1. @default 0, a free one */
  port?: number;
}

export const SLACK_CONTROL_PATH = '/_simulator/slack';
const METHODS = ['chat.postMessage', 'chat.update', 'auth.test', 'conversations.info'] as const;
type Method = (typeof METHODS)[number];
// A call's arguments are small; a larger body is refused, not read whole.
const MAX_BODY_BYTES = 1024 * 1024;

export async function startSlackWebApi(options: SlackWebApiOptions = {}): Promise<SlackWebApiStandIn> {
  const now = options.now ?? Date.now;
  const workspace = new SlackWorkspace({ now });
  const limits = new SlackRateLimits(options.rateLimits ?? undefined);
  const token = workspace.issueToken();
  const log: SlackApiCall[] = [];

  const answerApi = (
    method: string,
    headers: IncomingMessage['headers'],
    query: URLSearchParams,
    body: string,
  ) => {
    const parsed = parseArguments(headers, query, body);
    if ('error' in parsed) return { status: 200, body: { ok: false, error: parsed.error } };
    const { args, token: given, warnings } = parsed;
    const record = (status: number, answer: SlackAnswer, early?: boolean) => {
      log.push({
        method,
        at: now(),
        status,
        args,
        ...(answer.ok ? {} : { error: answer.error }),
        ...(early ? { early } : {}),
      });
    };
    if (!(METHODS as readonly string[]).includes(method)) {
      const answer = { ok: false as const, error: 'unknown_method' };
      record(404, answer);
      return { status: 404, body: answer };
    }
    const authError = workspace.authError(given);
    if (authError !== undefined) {
      const answer = { ok: false as const, error: authError };
      record(200, answer);
      return { status: 200, body: answer };
    }
    const decision = limits.check(method, given ?? '', args.channel, now());
    if (!decision.allowed) {
      const answer = { ok: false as const, error: 'ratelimited' };
      record(429, answer, decision.early);
      return { status: 429, body: answer, retryAfter: decision.retryAfterSeconds };
    }
    const answer = callMethod(workspace, method as Method, args);
    record(200, answer);
    return {
      status: 200,
      body:
        warnings.length > 0
          ? { ...answer, warning: warnings.join(','), response_metadata: { warnings } }
          : answer,
    };
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (size > MAX_BODY_BYTES) return sendJson(res, 413, { ok: false, error: 'request_too_large' });
      const body = Buffer.concat(chunks).toString('utf8');
      if (url.pathname.startsWith(`${SLACK_CONTROL_PATH}/`)) {
        return control(url.pathname.slice(SLACK_CONTROL_PATH.length + 1), req.method ?? 'GET', body, res);
      }
      const match = /^\/api\/([\w.]+)$/.exec(url.pathname);
      if (!match?.[1]) return sendJson(res, 404, { ok: false, error: 'unknown_method' });
      const answer = answerApi(match[1], req.headers, url.searchParams, body);
      sendJson(res, answer.status, answer.body, answer.retryAfter);
    });
  });

  const control = (action: string, method: string, body: string, res: ServerResponse) => {
    let input: Record<string, unknown> = {};
    try {
      input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    } catch {
      return sendJson(res, 400, { ok: false, error: 'the control endpoint takes a JSON object' });
    }
    try {
      if (method === 'GET' && action === 'channels') {
        return sendJson(res, 200, { ok: true, channels: workspace.channels().map(channelJson) });
      }
      if (method !== 'POST') return sendJson(res, 405, { ok: false, error: 'POST the controls' });
      const channel = typeof input.channel === 'string' ? input.channel : DEFAULT_SLACK_CHANNEL.id;
      switch (action) {
        case 'delete':
          workspace.deleteMessage(channel, String(input.ts));
          break;
        case 'lock':
          workspace.lockMessage(channel, String(input.ts));
          break;
        case 'rate-limit':
          limits.force({
            retryAfterSeconds: Number(input.retryAfterSeconds ?? 30),
            ...(typeof input.method === 'string' ? { method: input.method } : {}),
            ...(typeof input.times === 'number' ? { times: input.times } : {}),
          });
          break;
        case 'revoke':
          workspace.revokeToken(typeof input.token === 'string' ? input.token : token);
          break;
        case 'token':
          return sendJson(res, 200, { ok: true, token: workspace.issueToken() });
        case 'archive':
          workspace.setArchived(channel, input.archived !== false);
          break;
        case 'kick':
          workspace.setBotMembership(channel, false);
          break;
        case 'invite':
          workspace.setBotMembership(channel, true);
          break;
        default:
          return sendJson(res, 404, {
            ok: false,
            error:
              'controls: GET channels; POST delete, lock, rate-limit, revoke, token, archive, kick, invite',
          });
      }
      return sendJson(res, 200, { ok: true });
    } catch (error) {
      return sendJson(res, 400, { ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    token,
    channel: DEFAULT_SLACK_CHANNEL.id,
    controlUrl: `http://127.0.0.1:${port}${SLACK_CONTROL_PATH}`,
    workspace,
    forceRateLimit: (forced) => limits.force(forced),
    calls: () => [...log],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function callMethod(workspace: SlackWorkspace, method: Method, args: Record<string, unknown>): SlackAnswer {
  switch (method) {
    case 'chat.postMessage':
      return workspace.postMessage(args);
    case 'chat.update':
      return workspace.update(args);
    case 'auth.test':
      return workspace.authTest();
    case 'conversations.info':
      return workspace.conversationsInfo(args);
  }
}

interface ParsedCall {
  args: Record<string, unknown>;
  token: string | undefined;
  /** What Slack warns about without refusing, e.g. `missing_charset`. */
  warnings: string[];
}

/**
 * The call's arguments from its query and body: JSON (the token only in the Authorization header, as
 * Slack requires) or form-encoded (the token in the header or a `token` field).
 */
function parseArguments(
  headers: IncomingMessage['headers'],
  query: URLSearchParams,
  body: string,
): ParsedCall | { error: string } {
  const type = (headers['content-type'] ?? '').toLowerCase();
  const warnings: string[] = [];
  const args: Record<string, unknown> = Object.fromEntries(query);
  let formToken = typeof args.token === 'string' ? args.token : undefined;
  if (body !== '') {
    if (type.startsWith('application/json')) {
      if (!type.includes('charset')) warnings.push('missing_charset');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return { error: 'invalid_json' };
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'invalid_json' };
      Object.assign(args, json);
      // A JSON body cannot carry the token.
      delete args.token;
      formToken = undefined;
    } else if (type.startsWith('application/x-www-form-urlencoded') || type === '') {
      const form = Object.fromEntries(new URLSearchParams(body));
      Object.assign(args, form);
      if (typeof form.token === 'string') formToken = form.token;
    } else {
      return { error: 'invalid_form_data' };
    }
  }
  delete args.token;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  return { args, token: bearer ?? formToken, warnings };
}

function sendJson(res: ServerResponse, status: number, body: unknown, retryAfterSeconds?: number): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
  });
  res.end(JSON.stringify(body));
}

function channelJson(channel: ReturnType<SlackWorkspace['channels']>[number]) {
  return {
    id: channel.id,
    name: channel.name,
    is_private: channel.isPrivate,
    is_archived: channel.isArchived,
    is_member: channel.botIsMember,
    messages: [...channel.messages.values()],
  };
}
