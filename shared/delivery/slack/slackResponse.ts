// What an incoming webhook's answer means for delivery (pure). Slack answers `ok`, or an HTTP error with
// a short error string as the body (`invalid_payload`, `no_service`, `channel_is_archived`, …). Those
// that mean the webhook or its channel is dead disable the subscriber; those that blame the message
// dead-letter it; rate limits and Slack's own failures are retried.
import type { DeliveryOutcome } from '../deliveryOutcome.js';

/** The webhook, its channel or its workspace no longer takes messages: every later event would fail too. */
const GONE_CODES: Record<string, string> = {
  no_service: 'the webhook was removed or disabled',
  no_service_id: 'the webhook URL names no webhook',
  invalid_token: 'the webhook URL is no longer valid',
  no_active_hooks: 'the app has no active webhooks',
  no_team: 'the workspace no longer exists',
  team_disabled: 'the workspace is disabled',
  channel_not_found: 'the channel no longer exists',
  channel_is_archived: 'the channel is archived',
  action_prohibited: 'the workspace forbids this webhook to post there',
  posting_to_general_channel_denied: 'only admins may post to that channel',
};

/** Slack blamed this message: sending it again would fail the same way. */
const DEAD_CODES: Record<string, string> = {
  invalid_payload: 'Slack could not read the message',
  invalid_blocks: 'Slack refused the message blocks',
  invalid_blocks_format: 'Slack refused the message blocks',
  no_text: 'the message has no text',
  missing_text_or_fallback_or_attachments: 'the message has no text',
  too_many_attachments: 'the message has too many attachments',
  user_not_found: 'the user the message names does not exist',
};

// An error string is a short snake_case word; anything else (an HTML error page, a proxy's text) is not
// repeated, since it could echo the request, URL included.
const ERROR_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/** Slack's error string from a response body, when it has the expected shape. */
export function slackErrorCode(body: string): string | undefined {
  const text = body.trim();
  if (ERROR_CODE.test(text)) return text;
  if (!text.startsWith('{')) return undefined;
  try {
    const error = (JSON.parse(text) as { error?: unknown } | null)?.error;
    return typeof error === 'string' && ERROR_CODE.test(error) ? error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The outcome of one POST that got an HTTP answer.
 * @param retryAfterMs what the response's Retry-After asked for, if anything
 */
export function classifySlackResponse(
  status: number,
  body: string,
  retryAfterMs: number | undefined,
): DeliveryOutcome {
  if (status >= 200 && status < 300) {
    // Slack answers `ok`; any other 2xx body still means it took the message, and sending it again
    // would post it twice.
    return { kind: 'delivered', status };
  }
  const code = slackErrorCode(body);
  const answer = code ? `${status} ${code}` : String(status);
  if (status === 429) {
    const wait = retryAfterMs === undefined ? '' : `; retry after ${Math.ceil(retryAfterMs / 1000)} s`;
    return withRetryAfter(
      { kind: 'retry', reason: `Slack rate limited the webhook (429)${wait}`, status },
      retryAfterMs,
    );
  }
  if (status >= 500 || status === 408) {
    return withRetryAfter(
      { kind: 'retry', reason: `Slack failed to answer (${answer})`, status },
      retryAfterMs,
    );
  }
  const gone = code === undefined ? undefined : GONE_CODES[code];
  if (gone !== undefined || status === 404 || status === 410) {
    const why = gone ?? 'the webhook URL no longer exists';
    return {
      kind: 'gone',
      reason: `Slack webhook no longer takes messages (${answer}): ${why}; set up a new webhook URL`,
      status,
    };
  }
  if (status >= 400) {
    const why =
      code === undefined ? 'Slack refused the message' : (DEAD_CODES[code] ?? 'Slack refused the message');
    return { kind: 'dead', reason: `${why} (${answer})`, status };
  }
  // Redirects are not followed (the URL is the credential), and Slack's webhooks never redirect.
  return { kind: 'dead', reason: `unexpected answer from the Slack webhook (${answer})`, status };
}

function withRetryAfter(
  outcome: Extract<DeliveryOutcome, { kind: 'retry' }>,
  retryAfterMs: number | undefined,
): DeliveryOutcome {
  return retryAfterMs === undefined ? outcome : { ...outcome, retryAfterMs };
}
