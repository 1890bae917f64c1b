// What a webhook receiver's answer means for delivery, per Standard Webhooks: a 2xx is done, a 410 asks
// us to stop for good, a 429 or 5xx is worth another try (not before Retry-After), and anything else —
// another 4xx, or a redirect, which we never follow — will not get better by repeating the same request.
import type { ResponseHeaders } from '../../http/httpClient.js';
import { retryAfterMs } from '../../http/retryAfter.js';
import type { DeliveryOutcome } from '../deliveryOutcome.js';

export interface WebhookResponse {
  status: number;
  headers: ResponseHeaders;
  /** One line of the response text, already shortened and redacted; empty when there was none. */
  excerpt: string;
}

/**
 * @param endpoint how reasons name the receiver: its origin only, since paths and queries carry tokens
 * @param nowMs the time Retry-After dates are measured from
 */
export function classifyWebhookResponse(
  response: WebhookResponse,
  endpoint: string,
  nowMs: number,
): DeliveryOutcome {
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  const answered = `${endpoint} answered ${status}${response.excerpt ? `: ${response.excerpt}` : ''}`;
  if (status === 410) {
    return { kind: 'gone', status, reason: `${answered} (410 Gone: the endpoint wants no more webhooks)` };
  }
  if (status === 429 || status >= 500) {
    const wait = retryAfterMs(response.headers, nowMs);
    return wait === undefined
      ? { kind: 'retry', status, reason: answered }
      : { kind: 'retry', status, reason: answered, retryAfterMs: wait };
  }
  if (status >= 300 && status < 400) {
    // Following it would send order data, contact details included, to a URL nobody configured; Standard
    // Webhooks also counts a 3xx as a failure so that the subscriber's URL gets fixed instead.
    const target = redirectOrigin(response.headers.location, endpoint);
    return {
      kind: 'dead',
      status,
      reason: `${endpoint} redirected (${status})${target ? ` to ${target}` : ''}; redirects are not followed, update the subscriber URL`,
    };
  }
  return { kind: 'dead', status, reason: answered };
}

/** The origin a redirect points at, never its path or query. */
function redirectOrigin(location: string | string[] | undefined, endpoint: string): string | undefined {
  const text = Array.isArray(location) ? location[0] : location;
  if (!text) return undefined;
  try {
    return new URL(text, endpoint).origin;
  } catch {
    return undefined;
  }
}
