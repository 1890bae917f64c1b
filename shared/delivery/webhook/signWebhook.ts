// Standard Webhooks signatures: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret and
// space-separated, so a receiver holding either the old or the new key verifies during a rotation. The
// HMAC is computed by the official `standardwebhooks` package, the same code receivers verify with.
import { Webhook } from 'standardwebhooks';
import { WebhookSecretError, type WebhookSecretLocation } from '../errors.js';

const SECRET_PREFIX = 'whsec_';
/** Padded standard base64, as the official libraries decode it (URL-safe or unpadded forms are refused). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Standard Webhooks: at least 192 bits, at most 512. */
export const MIN_SECRET_BYTES = 24;
export const MAX_SECRET_BYTES = 64;

export interface WebhookSignatureInput {
  /** The `webhook-id` header: the event id, identical on every attempt. */
  id: string;
  /** The `webhook-timestamp` header: this attempt's time, integer epoch seconds. */
  timestamp: number;
  /** The exact bytes sent; a re-serialized body would not verify. */
  body: string;
  /** `whsec_…` secrets; each adds one signature. */
  secrets: readonly string[];
}

/** The `webhook-signature` header value, e.g. `v1,K5oZ… v1,pI4x…`. */
export function signWebhook(input: WebhookSignatureInput): string {
  assertWebhookSecrets(input.secrets);
  // The id and timestamp are joined with "." into the signed content: a "." inside either would let one
  // (id, timestamp) pair pass for another.
  if (input.id.length === 0 || /[.\s]/.test(input.id)) {
    throw new RangeError('a webhook id must be non-empty, without "." or whitespace');
  }
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw new RangeError('a webhook timestamp must be a non-negative integer number of seconds');
  }
  const at = new Date(input.timestamp * 1000);
  return input.secrets.map((secret) => new Webhook(secret).sign(input.id, at, input.body)).join(' ');
}

/** Refuses an empty list or any malformed secret, naming which one (by position) and never its value. */
export function assertWebhookSecrets(secrets: readonly string[], subscriberId?: string): void {
  const where = subscriberId === undefined ? {} : { subscriberId };
  if (secrets.length === 0) throw new WebhookSecretError('is missing', where);
  secrets.forEach((secret, index) => {
    assertWebhookSecret(secret, { ...where, index });
  });
}

/** Refuses a secret that is not `whsec_` + padded base64 of 24 to 64 bytes. */
export function assertWebhookSecret(secret: string, location: WebhookSecretLocation = {}): void {
  const problem = secretProblem(secret);
  if (problem !== undefined) throw new WebhookSecretError(problem, location);
}

function secretProblem(secret: unknown): string | undefined {
  if (typeof secret !== 'string' || secret.length === 0) return 'is empty';
  if (/\s/.test(secret)) return 'contains whitespace (a stray newline in the environment variable?)';
  if (!secret.startsWith(SECRET_PREFIX)) return `does not start with "${SECRET_PREFIX}"`;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) return `is not padded standard base64 after "${SECRET_PREFIX}"`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_SECRET_BYTES || bytes > MAX_SECRET_BYTES) return `decodes to ${bytes} bytes`;
  return undefined;
}
