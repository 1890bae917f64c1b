// Which parts of a URL must never be quoted, as forms for the redactor (shared/text/redactSecrets.ts). A
// URL that is itself the credential (a Slack incoming webhook, an SMTP URL with its password) is cut whole,
// path and password too; a webhook receiver's URL keeps its origin and path, and only its query (where
// tokens usually sit) is cut.
import type { SecretForm } from '../text/redactSecrets.js';

/** Query values and passwords shorter than this are left alone: `?v=1` would otherwise blank every "1". */
const MIN_SECRET_PART_CHARS = 4;

/**
 * Every form a credential URL could take in a message: as given (trimmed), as parsed, its path and query
 * (which hold a Slack webhook's token), and its password, raw and percent-decoded.
 */
export function credentialUrlForms(given: string, url: URL, mask = '…'): SecretForm[] {
  const values = [given.trim(), url.href, url.pathname + url.search];
  if (url.password.length >= MIN_SECRET_PART_CHARS) values.push(url.password, safeDecode(url.password));
  // A bare "/" is in every URL: cutting it would mangle the message, and it is no secret.
  return values.filter((value) => value.length > 1).map((value) => ({ value, mask }));
}

/**
 * For a URL whose query may carry a token: the URL as a whole becomes its origin, its query `?…`, and
 * each query value long enough to be a token `…`.
 */
export function queryForms(url: URL): SecretForm[] {
  const forms: SecretForm[] = [{ value: url.href, mask: url.origin }];
  if (url.search) forms.push({ value: url.search, mask: '?…' });
  for (const value of url.searchParams.values()) {
    if (value.length >= MIN_SECRET_PART_CHARS) forms.push({ value, mask: '…' });
  }
  return forms;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A malformed escape stays as written, and the encoded form is already covered.
    return text;
  }
}
