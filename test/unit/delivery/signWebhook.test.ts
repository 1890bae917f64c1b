// Standard Webhooks signatures as receivers check them: the official package verifies each one, a
// known-answer vector pins the scheme, and malformed secrets are refused without ever being printed.
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WebhookSecretError } from '../../../shared/delivery/errors.js';
import {
  assertWebhookSecret,
  assertWebhookSecrets,
  signWebhook,
} from '../../../shared/delivery/webhook/signWebhook.js';
import { makeWebhookSecret } from '../../support/webhookReceiver.js';

const ID = '3f1c9a2e-77b0-8d41-9a3c-0c5e2f7d9b10';
const BODY = '{"specversion":"1.0","type":"order.created","data":{"reference":"R-1042"}}';

/** Now, in the seconds the `webhook-timestamp` header carries (the package refuses stale ones). */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function headersFor(signature: string, timestamp: number, id = ID): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

function verifies(secret: string, body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

describe('signWebhook', () => {
  it('matches the Standard Webhooks reference vector', () => {
    // The vector of the official libraries' test suites.
    const signature = signWebhook({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is v1 and the base64 HMAC-SHA256 of "id.timestamp.body" under the decoded secret', () => {
    const secret = makeWebhookSecret();
    const timestamp = nowSeconds();
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${ID}.${timestamp}.${BODY}`).digest('base64');
    expect(signWebhook({ id: ID, timestamp, body: BODY, secrets: [secret] })).toBe(`v1,${expected}`);
  });

  it('produces a signature the official package verifies', () => {
    const secret = makeWebhookSecret();
    const timestamp = nowSeconds();
    const signature = signWebhook({ id: ID, timestamp, body: BODY, secrets: [secret] });
    expect(new Webhook(secret).verify(BODY, headersFor(signature, timestamp))).toEqual(JSON.parse(BODY));
  });

  it('signs with every secret at once, space-separated, so each secret alone verifies during a rotation', () => {
    const [oldSecret, newSecret, unrelated] = [makeWebhookSecret(), makeWebhookSecret(), makeWebhookSecret()];
    const timestamp = nowSeconds();
    const signature = signWebhook({ id: ID, timestamp, body: BODY, secrets: [oldSecret, newSecret] });

    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    const headers = headersFor(signature, timestamp);
    expect(verifies(oldSecret, BODY, headers)).toBe(true);
    expect(verifies(newSecret, BODY, headers)).toBe(true);
    expect(verifies(unrelated, BODY, headers)).toBe(false);
  });

  it('fails verification when the body, the id or the timestamp is tampered with', () => {
    const secret = makeWebhookSecret();
    const timestamp = nowSeconds();
    const signature = signWebhook({ id: ID, timestamp, body: BODY, secrets: [secret] });

    expect(verifies(secret, BODY.replace('R-1042', 'R-1043'), headersFor(signature, timestamp))).toBe(false);
    expect(verifies(secret, `${BODY} `, headersFor(signature, timestamp))).toBe(false);
    expect(verifies(secret, BODY, headersFor(signature, timestamp, `${ID.slice(0, -1)}1`))).toBe(false);
    expect(verifies(secret, BODY, headersFor(signature, timestamp - 1))).toBe(false);
  });

  it('refuses an id that could blur the "id.timestamp" boundary, and a non-integer timestamp', () => {
    const secrets = [makeWebhookSecret()];
    expect(() => signWebhook({ id: 'a.b', timestamp: nowSeconds(), body: BODY, secrets })).toThrow(
      RangeError,
    );
    expect(() => signWebhook({ id: '', timestamp: nowSeconds(), body: BODY, secrets })).toThrow(RangeError);
    expect(() => signWebhook({ id: ID, timestamp: 1.5, body: BODY, secrets })).toThrow(RangeError);
  });

  it('refuses to sign without any secret', () => {
    expect(() => signWebhook({ id: ID, timestamp: nowSeconds(), body: BODY, secrets: [] })).toThrow(
      WebhookSecretError,
    );
  });
});

describe('webhook secret validation', () => {
  const base64Of = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

  const malformed: Array<[string, string, RegExp]> = [
    ['without the whsec_ prefix', base64Of(32), /does not start with "whsec_"/],
    ['with another prefix', `whsk_${base64Of(32)}`, /does not start with "whsec_"/],
    ['that is not base64', 'whsec_not-base64-at-all!!not-base64-at-all!!', /not padded standard base64/],
    ['in unpadded base64', `whsec_${base64Of(32).replace(/=+$/, '')}`, /not padded standard base64/],
    ['shorter than 24 bytes', `whsec_${base64Of(16)}`, /decodes to 16 bytes/],
    ['longer than 64 bytes', `whsec_${base64Of(65)}`, /decodes to 65 bytes/],
    ['with a trailing newline', `whsec_${base64Of(32)}\n`, /contains whitespace/],
    ['that is empty', '', /is empty/],
  ];

  it.each(malformed)('refuses a secret %s, with a reason', (_label, secret, reason) => {
    expect(() => assertWebhookSecret(secret)).toThrow(reason);
    expect(() => assertWebhookSecret(secret)).toThrow(WebhookSecretError);
  });

  it.each(malformed)('never prints a secret %s, not even through inspect or JSON', (_label, secret) => {
    const error = captured(() => assertWebhookSecrets([makeWebhookSecret(), secret], 'orders-hook'));
    const payload = secret.replace(/^whsec_/, '').trim();
    for (const text of [error.message, String(error), inspect(error, { depth: 6 }), JSON.stringify(error)]) {
      if (payload.length > 0) expect(text).not.toContain(payload);
    }
  });

  it('names the subscriber and the position of the refused secret', () => {
    const error = captured(() => assertWebhookSecrets([makeWebhookSecret(), 'whsec_short'], 'orders-hook'));
    expect(error).toBeInstanceOf(WebhookSecretError);
    expect(error.message).toContain('webhook subscriber "orders-hook": signing secret #2');
    expect(error).toMatchObject({ subscriberId: 'orders-hook', secretIndex: 1 });
  });

  it('accepts whsec_ secrets of 24 to 64 bytes, such as the ones Svix issues', () => {
    expect(() => assertWebhookSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).not.toThrow();
    expect(() => assertWebhookSecret(`whsec_${base64Of(24)}`)).not.toThrow();
    expect(() => assertWebhookSecret(`whsec_${base64Of(64)}`)).not.toThrow();
  });
});

function captured(action: () => void): Error {
  try {
    action();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected an error');
}
