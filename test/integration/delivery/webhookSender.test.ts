// The webhook sender against real receivers on loopback: every request is verified with the official
// `standardwebhooks` package, and each kind of answer (or silence) becomes the outcome the retry logic needs.
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebhookSecretError, WebhookUrlError } from '../../../shared/delivery/errors.js';
import { WebhookSender, type WebhookSenderOptions } from '../../../shared/delivery/webhook/webhookSender.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { eventForSubscriber } from '../../../shared/events/orderSummary.js';
import { USER_AGENT } from '../../../shared/version.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { closedPort } from '../../support/loopbackServer.js';
import { makePrepSummary } from '../../support/prepSummaryFixtures.js';
import {
  makeWebhookSecret,
  type Responder,
  startWebhookReceiver,
  verifies,
  type WebhookReceiver,
  webhookHeaders,
} from '../../support/webhookReceiver.js';

const SECRET = makeWebhookSecret();
/** The sender's clock: real time, so the package's 5-minute tolerance applies, but pinned to assert on. */
let now: number;
const receivers: WebhookReceiver[] = [];
const senders: WebhookSender[] = [];

beforeEach(() => {
  now = Date.now();
});

afterEach(async () => {
  await Promise.all(senders.splice(0).map((sender) => sender.close()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(respond?: Responder, secrets: string[] = [SECRET], path?: string) {
  const started = await startWebhookReceiver({
    secrets,
    ...(respond ? { respond } : {}),
    ...(path ? { path } : {}),
  });
  receivers.push(started);
  return started;
}

function sender(url: string, options: Partial<WebhookSenderOptions> = {}): WebhookSender {
  const created = new WebhookSender({
    subscriberId: 'orders-hook',
    url,
    secrets: [SECRET],
    includeContactDetails: false,
    clock: () => now,
    ...options,
  });
  senders.push(created);
  return created;
}

function answer(status: number, body = '', headers: Record<string, string> = {}): Responder {
  return (_request, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
}

function onlyRequest(target: WebhookReceiver) {
  expect(target.received).toHaveLength(1);
  const [request] = target.received;
  if (!request) throw new Error('unreachable');
  return request;
}

describe('WebhookSender signing', () => {
  it('POSTs the CloudEvent JSON with the Standard Webhooks headers, verified by the official package', async () => {
    const target = await receiver();
    const event = makeOrderEvent();

    await expect(sender(target.url).send(event)).resolves.toEqual({ kind: 'delivered', status: 204 });

    const request = onlyRequest(target);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/orders');
    expect(request.verifiedBy).toEqual([true]);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(now / 1000)),
      'user-agent': USER_AGENT,
    });
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(JSON.parse(request.body)).toEqual(eventForSubscriber(event, false));
  });

  it('POSTs any event of the contract as it is: a prep summary and an order event after closing', async () => {
    const target = await receiver();
    const summary = makePrepSummary([{ items: [['SOUP-VEG', 'Vegetable soup', 12]] }], {
      incompleteReason: 'late',
    });
    const late = makeOrderEvent({ type: 'order.rescheduled', summarySent: () => true });
    const webhook = sender(target.url, { includeContactDetails: true });

    await expect(webhook.send(summary)).resolves.toEqual({ kind: 'delivered', status: 204 });
    await expect(webhook.send(late)).resolves.toEqual({ kind: 'delivered', status: 204 });

    const [first, second] = target.received;
    expect(first?.verifiedBy).toEqual([true]);
    expect(first?.headers['webhook-id']).toBe(summary.id);
    expect(JSON.parse(first?.body ?? '')).toEqual(summary);
    expect(JSON.parse(second?.body ?? '')).toEqual(late);
    expect(JSON.parse(second?.body ?? '').data.after_closing).toBe(true);
  });

  it('signs with every secret during a rotation, so a receiver holding either one verifies', async () => {
    const newSecret = makeWebhookSecret();
    const target = await receiver(undefined, [SECRET, newSecret, makeWebhookSecret()]);

    await sender(target.url, { secrets: [SECRET, newSecret] }).send(makeOrderEvent());

    expect(onlyRequest(target).verifiedBy).toEqual([true, true, false]);
    expect(webhookHeaders(onlyRequest(target).headers)['webhook-signature']?.split(' ')).toHaveLength(2);
  });

  it('sends a body that fails verification once tampered with', async () => {
    const target = await receiver();
    await sender(target.url).send(makeOrderEvent());

    const request = onlyRequest(target);
    const tampered = request.body.replace('"order.created"', '"order.canceled"');
    expect(tampered).not.toBe(request.body);
    expect(verifies(SECRET, tampered, request.headers)).toBe(false);
    expect(verifies(SECRET, request.body, request.headers)).toBe(true);
  });

  it('sends the same event twice under the same webhook-id, each attempt with its own fresh timestamp', async () => {
    const target = await receiver();
    const webhook = sender(target.url);
    const event = makeOrderEvent({ type: 'order.canceled' });

    await webhook.send(event);
    now += 7_000;
    await webhook.send(event);
    await webhook.send(makeOrderEvent());

    const [first, second, other] = target.received.map((request) => webhookHeaders(request.headers));
    expect(first?.['webhook-id']).toBe(event.id);
    expect(second?.['webhook-id']).toBe(event.id);
    expect(other?.['webhook-id']).not.toBe(event.id);
    expect(Number(second?.['webhook-timestamp']) - Number(first?.['webhook-timestamp'])).toBe(7);
    expect(target.received.map((request) => request.verifiedBy)).toEqual([[true], [true], [true]]);
  });
});

describe('WebhookSender contact details', () => {
  it('leaves the parent e-mail and phone out for a subscriber that did not opt in', async () => {
    const target = await receiver();
    await sender(target.url, { includeContactDetails: false }).send(makeOrderEvent());

    const body = JSON.parse(onlyRequest(target).body) as OrderEvent;
    expect(body.data.order.customer.parent).toEqual({ uuid: expect.any(String), name: 'Rui Silva' });
    expect(onlyRequest(target).body).not.toContain('parent@example.test');
  });

  it('includes the parent e-mail and phone for a subscriber that opted in', async () => {
    const target = await receiver();
    await sender(target.url, { includeContactDetails: true }).send(makeOrderEvent());

    const body = JSON.parse(onlyRequest(target).body) as OrderEvent;
    expect(body.data.order.customer.parent).toEqual({
      uuid: expect.any(String),
      name: 'Rui Silva',
      email: 'parent@example.test',
      phone: '+351 000 000 000',
    });
    expect(onlyRequest(target).verifiedBy).toEqual([true]);
  });
});

describe('WebhookSender outcomes', () => {
  it.each([200, 201, 204])('counts %i as delivered', async (status) => {
    const target = await receiver(answer(status, status === 204 ? '' : 'ok'));
    await expect(sender(target.url).send(makeOrderEvent())).resolves.toEqual({ kind: 'delivered', status });
  });

  it('counts 410 as gone: the subscriber asked for no more webhooks', async () => {
    const target = await receiver(answer(410, 'endpoint removed'));
    const outcome = await sender(target.url).send(makeOrderEvent());
    expect(outcome).toMatchObject({ kind: 'gone', status: 410 });
    expect(outcome.kind === 'gone' && outcome.reason).toContain('410');
  });

  it('retries a 429 no sooner than its Retry-After in seconds', async () => {
    const target = await receiver(answer(429, 'slow down', { 'retry-after': '7' }));
    await expect(sender(target.url).send(makeOrderEvent())).resolves.toMatchObject({
      kind: 'retry',
      status: 429,
      retryAfterMs: 7_000,
    });
  });

  it('retries a 503 no sooner than its Retry-After as an HTTP date, measured on the injected clock', async () => {
    const target = await receiver(answer(503, '', { 'retry-after': new Date(now + 60_000).toUTCString() }));
    const outcome = await sender(target.url).send(makeOrderEvent());
    expect(outcome).toMatchObject({ kind: 'retry', status: 503 });
    const wait = outcome.kind === 'retry' ? outcome.retryAfterMs : undefined;
    // HTTP dates have whole seconds.
    expect(wait).toBeGreaterThan(59_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });

  it.each([500, 502, 503, 504])('retries %i on the schedule when no Retry-After is given', async (status) => {
    const target = await receiver(answer(status, 'upstream trouble'));
    const outcome = await sender(target.url).send(makeOrderEvent());
    expect(outcome).toMatchObject({ kind: 'retry', status });
    expect(outcome).not.toHaveProperty('retryAfterMs');
  });

  it('retries a receiver that never answers, once the timeout passes', async () => {
    const target = await receiver(() => {});
    const outcome = await sender(target.url, { timeoutMs: 300 }).send(makeOrderEvent());
    expect(outcome).toMatchObject({ kind: 'retry' });
    expect(outcome.kind === 'retry' && outcome.reason).toMatch(/timeout/);
    expect(target.received).toHaveLength(1);
  });

  it('retries a 500 whose body never finishes, still reporting the status', async () => {
    const target = await receiver((_request, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const outcome = await sender(target.url, { timeoutMs: 300 }).send(makeOrderEvent());
    expect(outcome).toMatchObject({ kind: 'retry', status: 500 });
  });

  it('retries when the connection is refused', async () => {
    const port = await closedPort();
    const outcome = await sender(`http://127.0.0.1:${port}/hooks`).send(makeOrderEvent());
    expect(outcome).toMatchObject({ kind: 'retry' });
    expect(outcome.kind === 'retry' && outcome.reason).toContain(
      'connection refused: nothing listens at that address and port',
    );
    expect(outcome).not.toHaveProperty('status');
  });

  it.each([400, 401, 403, 404, 408, 413, 422])(
    'sends %i straight to the dead letters: repeating will not help',
    async (status) => {
      const target = await receiver(answer(status, `refused with ${status}`));
      const outcome = await sender(target.url).send(makeOrderEvent());
      expect(outcome).toMatchObject({ kind: 'dead', status });
      expect(outcome.kind === 'dead' && outcome.reason).toContain(`refused with ${status}`);
    },
  );

  it.each([301, 302, 307, 308])('does not follow a %i redirect, and dead-letters it', async (status) => {
    const elsewhere = await receiver();
    const target = await receiver(answer(status, '', { location: `${elsewhere.url}?token=moved-secret` }));

    const outcome = await sender(target.url).send(makeOrderEvent());

    expect(outcome).toMatchObject({ kind: 'dead', status });
    expect(outcome.kind === 'dead' && outcome.reason).toContain(
      `redirected (${status}) to ${elsewhere.origin}`,
    );
    expect(outcome.kind === 'dead' && outcome.reason).not.toContain('moved-secret');
    expect(elsewhere.received).toHaveLength(0);
  });
});

describe('WebhookSender reasons', () => {
  it('stay on one line, quote at most ~200 characters of the body, and never the query or the secret', async () => {
    const token = 'tok_7c1e0d5b9a2f';
    const target = await receiver(
      (request, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`error\nfor ${request.url} with ${SECRET} \r\n${'x'.repeat(5_000)}`);
      },
      [SECRET],
      `/hooks/orders?token=${token}`,
    );

    const outcome = await sender(target.url).send(makeOrderEvent());

    expect(outcome.kind).toBe('retry');
    const reason = outcome.kind === 'retry' ? outcome.reason : '';
    expect(reason).not.toMatch(/[\r\n]/);
    expect(reason).not.toContain(token);
    expect(reason).not.toContain('?token');
    expect(reason).not.toContain(SECRET.slice('whsec_'.length));
    expect(reason).toContain('error for /hooks/orders');
    expect(reason).toContain(target.origin);
    expect(reason.length).toBeLessThan(target.origin.length + 260);
  });

  it('quote nothing of a binary error body', async () => {
    const target = await receiver(answer(400, '\u0000\u0001PNG', { 'content-type': 'image/png' }));
    const outcome = await sender(target.url).send(makeOrderEvent());
    expect(outcome).toEqual({ kind: 'dead', status: 400, reason: `${target.origin} answered 400` });
  });

  it('name the receiver by origin only when the network fails', async () => {
    const port = await closedPort();
    const outcome = await sender(`http://127.0.0.1:${port}/hooks/private-path?token=abc123`).send(
      makeOrderEvent(),
    );
    const reason = outcome.kind === 'retry' ? outcome.reason : '';
    expect(reason).toBe(
      `cannot reach http://127.0.0.1:${port} (connection refused: nothing listens at that address and port)`,
    );
  });
});

describe('WebhookSender configuration', () => {
  it('refuses a malformed secret up front, without printing it', () => {
    const secret = 'whsec_c2hvcnQ=';
    const build = () => sender('http://127.0.0.1:9/hooks', { secrets: [SECRET, secret] });
    expect(build).toThrow(WebhookSecretError);
    try {
      build();
    } catch (error) {
      expect(inspect(error)).not.toContain('c2hvcnQ');
      expect(String(error)).toContain('webhook subscriber "orders-hook": signing secret #2');
    }
  });

  it('refuses an empty list of secrets', () => {
    expect(() => sender('http://127.0.0.1:9/hooks', { secrets: [] })).toThrow(WebhookSecretError);
  });

  it.each([
    [
      'a URL that is not http(s)',
      'ftp://127.0.0.1/hooks?token=abc123',
      /must be an https:\/\/ URL, or http:\/\/ on loopback/,
    ],
    ['plain http:// beyond loopback', 'http://hooks.example.test/x?token=abc123', /or http:\/\/ on loopback/],
    ['an unparsable URL', 'not a url ?token=abc123', /not a valid absolute URL/],
    ['a URL with credentials', 'http://user:abc123@127.0.0.1/hooks', /user name or password/],
  ])('refuses %s without quoting it', (_label, url, reason) => {
    expect(() => sender(url)).toThrow(WebhookUrlError);
    expect(() => sender(url)).toThrow(reason);
    expect(() => sender(url)).not.toThrow(/abc123/);
  });
});
