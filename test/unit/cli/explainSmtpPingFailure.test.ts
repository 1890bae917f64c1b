import { describe, expect, it } from 'vitest';
import {
  explainSmtpPingFailure,
  type SmtpPingTarget,
} from '../../../cli/checkConfig/explainSmtpPingFailure.js';

const target: SmtpPingTarget = {
  endpoint: 'smtp://mail.example.org:587',
  variable: 'SMTP_URL',
  timeoutMs: 10_000,
  secrets: ['p4ssw0rd-long'],
};

function failure(code: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`failure ${code}`), { code, ...extra });
}

describe('explainSmtpPingFailure', () => {
  it.each([
    [
      failure('EDNS', { originalCode: 'ENOTFOUND' }),
      'cannot find smtp://mail.example.org:587 (no such host: the name does not resolve): check the host in SMTP_URL',
    ],
    [
      failure('ETIMEDOUT'),
      'no answer from smtp://mail.example.org:587 within 10 s: check the host and port in SMTP_URL, and that this machine can reach it (firewalls and many networks block port 25; submission is 587, or 465 with smtps://)',
    ],
    [
      Object.assign(new Error('C0B8A1E2:error:0A00010B:SSL routines:ssl3_get_record:wrong version number'), {
        code: 'ESOCKET',
      }),
      'the TLS handshake with smtp://mail.example.org:587 failed (C0B8A1E2:error:0A00010B:SSL routines:ssl3_get_record:wrong version number): use smtps:// for port 465 and smtp:// for 587 or 25, in SMTP_URL',
    ],
    [
      failure('EPROTOCOL', { responseCode: 554, response: '554 5.7.1 No SMTP service here' }),
      'smtp://mail.example.org:587 answered 554: 554 5.7.1 No SMTP service here',
    ],
  ])('explains %s in words', (error, explanation) => {
    expect(explainSmtpPingFailure(error, target)).toBe(explanation);
  });

  it('never quotes the password, even when the server echoes it', () => {
    const error = failure('EAUTH', { response: '535 5.7.8 login alerts:p4ssw0rd-long rejected' });
    expect(explainSmtpPingFailure(error, target)).toBe(
      'smtp://mail.example.org:587 refused the login: 535 5.7.8 login alerts:… rejected; check the user and password in SMTP_URL',
    );
  });
});
