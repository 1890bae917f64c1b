// Reads how long the server wants us to wait: `Retry-After` (seconds or HTTP date), else the reset time
// in `X-RateLimit-Reset` when `X-RateLimit-Remaining` says nothing is left. The Admin API client and both
// senders read it the same way.
import type { ResponseHeaders } from './httpClient.js';

/** Milliseconds to wait, or undefined when the headers do not say. */
export function retryAfterMs(headers: ResponseHeaders, nowMs: number): number | undefined {
  const retryAfter = single(headers['retry-after']);
  if (retryAfter !== undefined) {
    if (/^\d+(?:\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - nowMs);
  }
  const remaining = single(headers['x-ratelimit-remaining']);
  const reset = single(headers['x-ratelimit-reset']);
  if (remaining === '0' && reset !== undefined && /^\d+$/.test(reset)) {
    const value = Number(reset);
    // Servers send either an epoch in seconds or seconds to wait; no wait is 30 years long.
    return value > 1_000_000_000 ? Math.max(0, value * 1000 - nowMs) : value * 1000;
  }
  return undefined;
}

function single(value: ResponseHeaders[string]): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() || undefined;
}
