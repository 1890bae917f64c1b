// Whether a Slack incoming-webhook secret is usable as a URL at all: checked once, by the sender's
// constructor, which check-config, the runner's start-up and the AWS delivery function all build.

/** The URL when `text` (trimmed) is an absolute http(s) URL, else undefined. */
export function parseSlackWebhookUrl(text: string): URL | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}
