// `check-config --ping`: for each Slack app subscriber (botToken), whether Slack takes its bot token
// (auth.test) and whether the app can post in its channel (conversations.info: the channel exists, the
// app is a member, it is not archived). A failure is one line that says what to do, in the words the
// board uses when the same thing stops it (classifySlackApiAnswer.ts). Nothing is posted.
import {
  type Config,
  DEFAULT_SLACK_API_URL,
  isSlackAppSubscriber,
} from '../../shared/config/configSchema.js';
import { classifySlackApiAnswer } from '../../shared/delivery/slack/webApi/classifySlackApiAnswer.js';
import { networkWords } from '../../shared/errors/networkWords.js';
import type { HttpClientFactory } from '../../shared/http/httpClient.js';
import { HttpTimeoutError, type HttpTransportError } from '../../shared/http/httpErrors.js';
import { retryAfterMs } from '../../shared/http/retryAfter.js';
import { HttpTransport } from '../../shared/http/transport.js';

export type SlackAppPingResult =
  | { subscriber: string; ok: true; line: string }
  | { subscriber: string; ok: false; line: string };

/** A ping is a question: an answer within seconds. */
const PING_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 64 * 1024;

interface Answer {
  status: number;
  body: string;
  retryAfterMs: number | undefined;
  json: Record<string, unknown> | undefined;
}

export async function pingSlackApps(
  config: Config,
  env: NodeJS.ProcessEnv,
  httpClient?: HttpClientFactory,
): Promise<SlackAppPingResult[]> {
  return Promise.all(
    config.subscribers.filter(isSlackAppSubscriber).map(async (subscriber): Promise<SlackAppPingResult> => {
      const token = (env[subscriber.botToken.env] ?? '').trim();
      const apiUrl = (subscriber.apiUrl ?? DEFAULT_SLACK_API_URL).replace(/\/+$/, '');
      const words = { tokenSecret: subscriber.botToken.env, channel: subscriber.channel };
      const name = `subscriber "${subscriber.id}" (Slack app)`;
      const fail = (line: string): SlackAppPingResult => ({
        subscriber: subscriber.id,
        ok: false,
        line: `${name}: ${line}`,
      });
      const transport = new HttpTransport({
        timeouts: { connectMs: PING_TIMEOUT_MS, headersMs: PING_TIMEOUT_MS, bodyMs: PING_TIMEOUT_MS },
        attemptTimeoutMs: PING_TIMEOUT_MS,
        ...(httpClient === undefined ? {} : { httpClient }),
        secrets: [{ value: token, mask: '[bot token]' }],
      });
      const call = async (method: string, args: object): Promise<Answer | string> => {
        try {
          const response = await transport.send(new URL(`${apiUrl}/${method}`), {
            method: 'POST',
            headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${token}` },
            body: JSON.stringify(args),
            read: { excerptBytes: MAX_BODY_BYTES },
          });
          return {
            status: response.status,
            body: response.text,
            retryAfterMs: retryAfterMs(response.headers, Date.now()),
            json: parseObject(response.text),
          };
        } catch (error) {
          if (error instanceof HttpTimeoutError)
            return `Slack at ${apiUrl} did not answer ${method} within ${PING_TIMEOUT_MS / 1000} s`;
          const code = (error as HttpTransportError).code;
          return `could not reach Slack at ${apiUrl} (${code === undefined ? 'network failure' : networkWords(code)}); check apiUrl`;
        }
      };
      /** The board's own line for a failed call: what happened, then what to do. */
      const explain = (method: string, answer: Answer): string => {
        const result = classifySlackApiAnswer(method, answer.status, answer.body, answer.retryAfterMs, words);
        if (result.ok) return `Slack answered ${method} without ok`;
        const { failure } = result;
        return failure.kind === 'fix_by_hand'
          ? `${failure.reason}: ${failure.action}`
          : transport.redact(failure.reason);
      };
      const said = (method: string, code: string) =>
        explain(method, {
          status: 200,
          body: JSON.stringify({ ok: false, error: code }),
          retryAfterMs: undefined,
          json: undefined,
        });
      try {
        const auth = await call('auth.test', {});
        if (typeof auth === 'string') return fail(auth);
        if (auth.json?.ok !== true) return fail(explain('auth.test', auth));
        const info = await call('conversations.info', { channel: subscriber.channel });
        if (typeof info === 'string') return fail(info);
        if (info.json?.ok !== true) return fail(explain('conversations.info', info));
        const channel = (info.json.channel ?? {}) as {
          name?: unknown;
          is_member?: unknown;
          is_archived?: unknown;
        };
        // conversations.info shows a public channel the app is not in; posting there would fail.
        if (channel.is_archived === true) return fail(said('conversations.info', 'is_archived'));
        if (channel.is_member === false) return fail(said('conversations.info', 'not_in_channel'));
        const who = typeof auth.json.user === 'string' ? ` as @${auth.json.user}` : '';
        const team = typeof auth.json.team === 'string' ? ` in ${auth.json.team}` : '';
        const channelName = typeof channel.name === 'string' ? `#${channel.name} ` : '';
        return {
          subscriber: subscriber.id,
          ok: true,
          line: `${name}: OK, Slack takes the bot token${who}${team}, and the app is in ${channelName}${subscriber.channel}`,
        };
      } finally {
        await transport.close();
      }
    }),
  );
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
