// Where a subscriber's deliveries may go: https://, or plain http:// only to this machine, since over a
// network a webhook's body (orders, perhaps contact details) and a Slack URL (itself the credential) would
// travel in clear. One rule for webhook and Slack URLs, read by the config schema and by the senders.

/** What a webhook or Slack URL must be, as every refusal words it. */
export const DELIVERY_URL_RULE = 'an https:// URL, or http:// on loopback (127.0.0.0/8, ::1, localhost)';

/** The URL when `text` (trimmed) is an absolute https:// URL or an http:// one to loopback; else undefined. */
export function parseDeliveryUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol === 'https:') return url;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname) ? url : undefined;
}

// The URL parser has already lower-cased the host, written an IPv4 address in its dotted form (127.1 is
// 127.0.0.1) and put an IPv6 one in brackets.
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Whether a URL's `hostname` is this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || LOOPBACK_IPV4.test(hostname);
}
