// check-config's SMTP ping against real SMTP servers on loopback: one that answers, one that refuses the
// login, a port where nothing listens, and a server that accepts the connection and never greets.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pingSmtp } from '../../../cli/checkConfig/pingSmtp.js';
import type { SmtpConfig } from '../../../shared/config/configSchema.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../support/smtpReceiver.js';

const smtp: SmtpConfig = { url: { env: 'SMTP_URL' }, from: 'Alerts <alerts@example.org>' };
let open: SmtpReceiver;
let guarded: SmtpReceiver;
let silent: Server;
const sockets: Socket[] = [];

beforeAll(async () => {
  open = await startSmtpReceiver();
  guarded = await startSmtpReceiver({ credentials: { user: 'alerts', pass: 'right-password' } });
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all([open.close(), guarded.close(), new Promise((resolve) => silent.close(resolve))]);
});

function portOf(server: Server): number {
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening');
  return address.port;
}

describe('pingSmtp', () => {
  it('says OK for a server that answers, and that it accepts the login when the URL has one', async () => {
    expect(await pingSmtp(smtp, { SMTP_URL: open.url })).toEqual({
      endpoint: `smtp://127.0.0.1:${open.port}`,
      ok: true,
      login: false,
    });
    expect(await pingSmtp(smtp, { SMTP_URL: guarded.url })).toMatchObject({ ok: true, login: true });
    expect(open.received).toHaveLength(0);
  });

  it('explains a refused login without quoting the password', async () => {
    const url = `smtp://alerts:wrong-password@127.0.0.1:${guarded.port}`;
    const result = await pingSmtp(smtp, { SMTP_URL: url });
    expect(result).toMatchObject({ ok: false });
    const explanation = result.ok ? '' : result.explanation;
    expect(explanation).toMatch(
      new RegExp(
        `^smtp://127\\.0\\.0\\.1:${guarded.port} refused the login: 535 .*; check the user and password in SMTP_URL$`,
      ),
    );
    expect(explanation).not.toContain('wrong-password');
  });

  it('explains a port where nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = portOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    expect(await pingSmtp(smtp, { SMTP_URL: `smtp://127.0.0.1:${port}` })).toEqual({
      endpoint: `smtp://127.0.0.1:${port}`,
      ok: false,
      explanation: `cannot reach smtp://127.0.0.1:${port} (connection refused: nothing listens at that address and port): check the host and port in SMTP_URL`,
    });
  });

  it('gives up on a server that never greets, within the time limit', async () => {
    const port = portOf(silent);
    const result = await pingSmtp(smtp, { SMTP_URL: `smtp://127.0.0.1:${port}` }, 200);
    expect(result).toMatchObject({ ok: false });
    expect(result.ok ? '' : result.explanation).toMatch(
      new RegExp(
        `^no answer from smtp://127\\.0\\.0\\.1:${port} within 0\\.2 s: check the host and port in SMTP_URL`,
      ),
    );
  });
});
