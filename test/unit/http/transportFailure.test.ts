import { describe, expect, it } from 'vitest';
import { HttpNetworkError, HttpTimeoutError } from '../../../shared/http/httpErrors.js';
import { type FailedRequest, transportFailure } from '../../../shared/http/transportFailure.js';
import { SecretRedactor } from '../../../shared/text/redactSecrets.js';

const url = new URL('https://receiver.example/hooks/orders?token=tok_7c1e0d5b');
const request: FailedRequest = {
  url,
  timeouts: { connectMs: 5_000, headersMs: 15_000, bodyMs: 20_000, attemptMs: 30_000 },
  attemptTimedOut: false,
  redact: (text) => new SecretRedactor([{ value: url.href, mask: url.origin }]).redact(text),
};

function coded(code: string, message = `failure ${code}`): Error {
  return Object.assign(new Error(message), { code });
}

describe('transportFailure', () => {
  it.each([
    ['UND_ERR_CONNECT_TIMEOUT', 'connect', 5_000],
    ['UND_ERR_HEADERS_TIMEOUT', 'headers', 15_000],
    ['UND_ERR_BODY_TIMEOUT', 'body', 20_000],
  ] as const)('maps %s to a %s timeout with the limit that ran out', (code, phase, limit) => {
    const failure = transportFailure(coded(code), request);
    expect(failure).toBeInstanceOf(HttpTimeoutError);
    expect(failure).toMatchObject({ phase, timeoutMs: limit, code, detail: code });
  });

  it("maps the system's ETIMEDOUT to a connect timeout whose limit is not ours", () => {
    const failure = transportFailure(coded('ETIMEDOUT'), request);
    expect(failure).toMatchObject({ phase: 'connect', timeoutMs: undefined });
    expect(failure.message).toBe('https://receiver.example accepted no connection in time');
  });

  it('maps anything that failed once the attempt ran out of time to an attempt timeout', () => {
    const aborted = new DOMException('the attempt timed out', 'TimeoutError');
    expect(transportFailure(aborted, request)).toMatchObject({ phase: 'attempt', timeoutMs: 30_000 });
    // A phase's code that arrives as the attempt's bound runs out still counts as the attempt's.
    const late = transportFailure(coded('UND_ERR_HEADERS_TIMEOUT'), { ...request, attemptTimedOut: true });
    expect(late).toMatchObject({ phase: 'attempt' });
  });

  it("maps a fetch signal's TimeoutError to a timeout, and its AbortError to a network failure", () => {
    const timedOut = transportFailure(new DOMException('signal timed out', 'TimeoutError'), request);
    expect(timedOut).toBeInstanceOf(HttpTimeoutError);
    const aborted = transportFailure(new DOMException('This operation was aborted', 'AbortError'), request);
    expect(aborted).toBeInstanceOf(HttpNetworkError);
    expect(aborted).toMatchObject({ detail: 'aborted', code: undefined });
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'UND_ERR_SOCKET'])(
    'maps %s to a network error that quotes the code and the origin only',
    (code) => {
      const failure = transportFailure(coded(code, `connect ${code} ${url.href}`), request);
      expect(failure).toBeInstanceOf(HttpNetworkError);
      expect(failure).toMatchObject({ code, detail: code, origin: 'https://receiver.example' });
      expect(failure.message).toBe(`cannot reach https://receiver.example: ${code}`);
    },
  );

  it('keeps the original error as the cause', () => {
    const original = coded('ECONNREFUSED');
    expect(transportFailure(original, request).cause).toBe(original);
  });

  it('quotes an error without a code by its message, redacted, on one line and cut short', () => {
    const failure = transportFailure(
      new Error(`socket hang up\nwhile posting to ${url.href} ${'x'.repeat(300)}`),
      request,
    );
    expect(failure).toBeInstanceOf(HttpNetworkError);
    expect(failure.code).toBeUndefined();
    expect(failure.detail).toMatch(/^socket hang up while posting to https:\/\/receiver\.example x+…$/);
    expect(failure.detail).not.toContain('tok_7c1e0d5b');
    expect(failure.detail.length).toBeLessThanOrEqual(201);
  });

  it('never takes free text for a code: a "code" that is not one is ignored', () => {
    const failure = transportFailure(coded(`bad ${url.href}`, 'boom'), request);
    expect(failure).toMatchObject({ code: undefined, detail: 'boom' });
  });
});
