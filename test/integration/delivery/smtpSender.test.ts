import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  messageIdFor,
  SmtpEmailSender,
  type SmtpEmailSenderOptions,
} from '../../../shared/delivery/email/smtpSender.js';
import { SmtpConfigError } from '../../../shared/delivery/errors.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { closedPort } from '../../support/loopbackServer.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../support/smtpReceiver.js';

const FROM = '"Meal orders" <orders@school.example>';
const TO = ['kitchen@school.example', 'office@school.example'];
const PASSWORD = 'pa55-w0rd/secret';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  // Senders first: their pools hold connections the receivers would otherwise wait on.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(options: Parameters<typeof startSmtpReceiver>[0] = {}): Promise<SmtpReceiver> {
  const started = await startSmtpReceiver(options);
  cleanups.push(() => started.close());
  return started;
}

function sender(smtpUrl: string, overrides: Partial<SmtpEmailSenderOptions> = {}): SmtpEmailSender {
  const created = new SmtpEmailSender({
    subscriberId: 'office',
    to: TO,
    from: FROM,
    smtpUrl,
    includeContactDetails: false,
    ...overrides,
  });
  cleanups.push(() => created.close());
  return created;
}

describe('SmtpEmailSender against a real SMTP server', () => {
  it('delivers one message with the subject, a text and an HTML part, to and from the configured addresses', async () => {
    const smtp = await receiver();
    const event = makeOrderEvent({
      type: 'order.canceled',
      order: {
        reference: 'R-1042',
        pickup_at: '2026-11-23',
        establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Canteen 2' },
      },
    });

    const outcome = await sender(smtp.url).send(event);

    expect(outcome).toEqual({ kind: 'delivered', status: 250 });
    const mail = await smtp.nextMail();
    expect(smtp.received).toHaveLength(1);
    expect(mail.mailFrom).toBe('orders@school.example');
    expect(mail.rcptTo).toEqual(TO);
    expect(mail.headers.get('from')).toBe('Meal orders <orders@school.example>');
    expect(mail.headers.get('to')).toBe('kitchen@school.example, office@school.example');
    expect(mail.headers.get('subject')).toBe('Order R-1042 canceled — Canteen 2, pickup Mon 23 Nov');
    expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail.text).toContain('Reference:      R-1042\n');
    expect(mail.text).toContain('Status: pending → canceled');
    expect(mail.html).toContain(
      '<td style="padding:4px 12px 4px 0;vertical-align:top;text-align:left">R-1042</td>',
    );
  });

  it('derives the Message-ID from the event id, so a retried send is the same message', async () => {
    const smtp = await receiver();
    const event = makeOrderEvent();
    const office = sender(smtp.url);

    await office.send(event);
    await office.send(event);

    const [first, second] = [await smtp.nextMail(), await smtp.nextMail()];
    const expected = `<${event.id}.office@school.example>`;
    expect(messageIdFor(event.id, 'office', 'school.example')).toBe(expected);
    expect(first.headers.get('message-id')).toBe(expected);
    expect(second.headers.get('message-id')).toBe(expected);
    expect(first.headers.get('x-meal-order-event-id')).toBe(event.id);
    expect(first.headers.get('x-meal-order-event-type')).toBe('order.created');
    expect(first.headers.get('auto-submitted')).toBe('auto-generated');
  });

  it('gives each subscriber its own Message-ID for the same event', async () => {
    const smtp = await receiver();
    const event = makeOrderEvent();

    await sender(smtp.url, { subscriberId: 'office' }).send(event);
    await sender(smtp.url, { subscriberId: 'kitchen' }).send(event);

    const ids = [
      (await smtp.nextMail()).headers.get('message-id'),
      (await smtp.nextMail()).headers.get('message-id'),
    ];
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toContain(event.id);
  });

  it('includes parent e-mail and phone only for a subscriber that opted in', async () => {
    const smtp = await receiver();
    const event = makeOrderEvent();

    await sender(smtp.url, { includeContactDetails: false }).send(event);
    await sender(smtp.url, { includeContactDetails: true }).send(event);

    const [redacted, full] = [await smtp.nextMail(), await smtp.nextMail()];
    expect(redacted.raw).not.toContain('parent@example.test');
    expect(full.text).toContain('Parent e-mail:  parent@example.test');
  });

  it('logs in with the credentials of the SMTP URL', async () => {
    const smtp = await receiver({ credentials: { user: 'notifier', pass: PASSWORD } });

    const outcome = await sender(smtp.url).send(makeOrderEvent());

    expect(outcome.kind).toBe('delivered');
    expect(smtp.received).toHaveLength(1);
  });

  it('dead-letters a message the server refuses for good (550 mailbox unavailable)', async () => {
    const smtp = await receiver({ rejectRecipients: { code: 550, message: '5.1.1 Mailbox unavailable' } });

    const outcome = await sender(smtp.url).send(makeOrderEvent());

    expect(outcome).toEqual({
      kind: 'dead',
      status: 550,
      reason: `smtp://127.0.0.1:${smtp.port} answered 550 to RCPT TO: 550 5.1.1 Mailbox unavailable`,
    });
    expect(smtp.received).toHaveLength(0);
  });

  it('dead-letters a 553 (mailbox name not allowed)', async () => {
    const smtp = await receiver({ rejectRecipients: { code: 553, message: 'Mailbox name not allowed' } });

    const outcome = await sender(smtp.url).send(makeOrderEvent());

    expect(outcome).toMatchObject({ kind: 'dead', status: 553 });
  });

  it('retries a message the server defers (451 try again later)', async () => {
    const smtp = await receiver({ rejectRecipients: { code: 451, message: '4.3.0 Try again later' } });

    const outcome = await sender(smtp.url).send(makeOrderEvent());

    expect(outcome).toEqual({
      kind: 'retry',
      status: 451,
      reason: `smtp://127.0.0.1:${smtp.port} answered 451 to RCPT TO: 451 4.3.0 Try again later`,
    });
  });

  it('retries when the connection is refused', async () => {
    const port = await closedPort();

    const outcome = await sender(`smtp://127.0.0.1:${port}`).send(makeOrderEvent());

    expect(outcome).toEqual({
      kind: 'retry',
      reason: `cannot reach smtp://127.0.0.1:${port} (connection refused: nothing listens at that address and port)`,
    });
  });

  it('retries when the server accepts the connection but never greets (timeout)', async () => {
    const silent = await silentServer();

    const outcome = await sender(`smtp://127.0.0.1:${silent.port}`, { timeoutMs: 200 }).send(
      makeOrderEvent(),
    );

    expect(outcome.kind).toBe('retry');
    expect(outcome).toMatchObject({ reason: expect.stringMatching(/^smtp:\/\/127\.0\.0\.1:\d+ timed out/) });
  });

  it('retries a refused login instead of dead-lettering every event until the password is fixed', async () => {
    const smtp = await receiver({ credentials: { user: 'notifier', pass: 'the-right-one' } });
    const wrong = smtp.url.replace('the-right-one', encodeURIComponent(PASSWORD));

    const outcome = await sender(wrong).send(makeOrderEvent());

    expect(outcome).toMatchObject({ kind: 'retry', status: 535 });
    expect(outcome).toMatchObject({ reason: expect.stringContaining('refused the SMTP login') });
  });

  it('never puts the SMTP URL or its password in a reason', async () => {
    const credentials = { user: 'notifier', pass: PASSWORD };
    const refusing = await receiver({
      credentials,
      rejectRecipients: { code: 550, message: 'No such user' },
    });
    const deferring = await receiver({ credentials, rejectRecipients: { code: 451, message: 'Later' } });
    const wrongLogin = refusing.url.replace(encodeURIComponent('notifier'), 'someone-else');
    const refusedUrl = `smtp://notifier:${encodeURIComponent(PASSWORD)}@127.0.0.1:${await closedPort()}`;

    const outcomes = [
      await sender(refusing.url).send(makeOrderEvent()),
      await sender(deferring.url).send(makeOrderEvent()),
      await sender(wrongLogin).send(makeOrderEvent()),
      await sender(refusedUrl).send(makeOrderEvent()),
    ];

    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['dead', 'retry', 'retry', 'retry']);
    for (const outcome of outcomes) {
      if (outcome.kind === 'delivered') throw new Error('expected a failure');
      expect(outcome.reason).not.toContain(PASSWORD);
      expect(outcome.reason).not.toContain(encodeURIComponent(PASSWORD));
      expect(outcome.reason).not.toContain('notifier:');
      expect(outcome.reason).not.toMatch(/[\r\n]/);
    }
  });

  it('refuses a configuration it could never send with, without quoting the URL', () => {
    const options = { subscriberId: 'office', to: TO, from: FROM, includeContactDetails: false };
    expect(() => new SmtpEmailSender({ ...options, smtpUrl: `not a url ${PASSWORD}` })).toThrow(
      SmtpConfigError,
    );
    expect(() => new SmtpEmailSender({ ...options, smtpUrl: `not a url ${PASSWORD}` })).not.toThrow(PASSWORD);
    expect(() => new SmtpEmailSender({ ...options, smtpUrl: 'https://mail.example' })).toThrow(
      'smtp.url must use smtp or smtps, not "https"',
    );
    expect(() => new SmtpEmailSender({ ...options, to: [], smtpUrl: 'smtp://mail.example' })).toThrow(
      'no recipients',
    );
  });
});

/** A TCP server that accepts connections and says nothing, as a hung SMTP server does. */
async function silentServer(): Promise<{ port: number }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return { port: address.port };
}
