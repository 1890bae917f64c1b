// Whether a Slack incoming-webhook secret is usable as a URL at all: checked by the sender, by
// check-config and by the AWS delivery function, so all three agree on what "usable" means.

/** The URL when `text` (trimmed) is an absolute http(s) URL, else undefined. */
export function parseSlackWebhookUrl(text: string): URL | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}
