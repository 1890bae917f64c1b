// What a Slack Web API answer means for the board (pure). The Web API answers HTTP 200 with `ok: false`
// and an error word for most failures, 429 with Retry-After for a rate limit, and 5xx when Slack fails.
// The words that need a person say in one line what to do: a new token, or invite the app to the channel.
import { slackErrorCode } from '../slackResponse.js';
import type { SlackApiFailure, SlackApiResult } from './slackWebApi.js';

/** The token is no good: a person puts a new one where the config's botToken points. */
const TOKEN_CODES: Record<string, string> = {
  invalid_auth: 'Slack refused the bot token',
  not_authed: 'Slack got no bot token',
  token_revoked: 'the bot token was revoked',
  token_expired: 'the bot token expired',
  account_inactive: 'the Slack app or its workspace was deactivated',
  missing_scope: 'the bot token lacks a scope the board needs (chat:write)',
  no_permission: 'the bot token may not do this',
  team_access_not_granted: 'the bot token has no access to the workspace',
};

/** The channel is out of reach: a person invites the app, or picks another channel. */
const CHANNEL_CODES: Record<string, string> = {
  not_in_channel: 'the Slack app is not in the channel',
  channel_not_found: 'the channel does not exist or the app cannot see it',
  is_archived: 'the channel is archived',
  restricted_action: 'the workspace forbids the app to post in the channel',
};

const GONE_CODES = new Set([
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
  'thread_not_found',
]);

const TRANSIENT_CODES = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/** How the board tells a person what to do, with the subscriber's settings named. */
export interface FixByHandWords {
  /** The variable (or secret) the bot token is read from, e.g. KITCHEN_SLACK_BOT_TOKEN. */
  tokenSecret: string;
  channel: string;
}

/**
 * @param status the HTTP status
 * @param body the body (only its error word is read and quoted)
 * @param retryAfterMs what Retry-After asked for
 */
export function classifySlackApiAnswer(
  method: string,
  status: number,
  body: string,
  retryAfterMs: number | undefined,
  words: FixByHandWords,
): SlackApiResult {
  if (status === 429) {
    const waitMs = retryAfterMs ?? 60_000;
    return fail({
      kind: 'rate_limited',
      reason: `Slack rate limited ${method} (429); waiting ${Math.ceil(waitMs / 1000)} s before any call with this token`,
      retryAfterMs: waitMs,
    });
  }
  const code = slackErrorCode(body);
  if (status >= 500 || status === 408) {
    return fail({
      kind: 'transient',
      reason: `Slack failed to answer ${method} (${code ? `${status} ${code}` : status})`,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (status >= 200 && status < 300) {
    const answer = parseAnswer(body);
    if (answer?.ok === true && typeof answer.ts === 'string') return { ok: true, ts: answer.ts };
    if (answer?.ok === true)
      return fail({ kind: 'refused', reason: `Slack answered ${method} without a ts` });
  }
  if (code === undefined)
    return fail({ kind: 'transient', reason: `unexpected answer from Slack to ${method} (${status})` });
  return fail(failureOf(method, code, words));
}

function failureOf(method: string, code: string, words: FixByHandWords): SlackApiFailure {
  const token = TOKEN_CODES[code];
  if (token !== undefined)
    return {
      kind: 'fix_by_hand',
      code,
      reason: `${token} (${method}: ${code})`,
      action: `put a new bot token in ${words.tokenSecret} (the Slack app's OAuth & Permissions page)`,
    };
  const channel = CHANNEL_CODES[code];
  if (channel !== undefined)
    return {
      kind: 'fix_by_hand',
      code,
      reason: `${channel} (${method}: ${code})`,
      action:
        code === 'not_in_channel'
          ? `invite the app to channel ${words.channel} (/invite @the-app in the channel)`
          : `set channel to a channel the app is in (now ${words.channel})`,
    };
  if (GONE_CODES.has(code))
    return { kind: 'message_gone', code, reason: `the message is gone (${method}: ${code})` };
  if (code === 'ratelimited' || code === 'rate_limited')
    return { kind: 'rate_limited', reason: `Slack rate limited ${method} (${code})`, retryAfterMs: 60_000 };
  if (TRANSIENT_CODES.has(code)) return { kind: 'transient', reason: `Slack failed (${method}: ${code})` };
  return { kind: 'refused', code, reason: `Slack refused ${method} (${code})` };
}

function parseAnswer(body: string): { ok?: unknown; ts?: unknown } | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null
      ? (value as { ok?: unknown; ts?: unknown })
      : undefined;
  } catch {
    return undefined;
  }
}

function fail(failure: SlackApiFailure): SlackApiResult {
  return { ok: false, failure };
}
