// `check-config --ping`: whether the SMTP server of smtp.url answers, and accepts the login when the URL
// has one (nodemailer's verify: connect, greeting, EHLO, STARTTLS when offered, AUTH), within a time
// limit. Nothing is sent. Without it, a wrong SMTP address passed the check and failed at delivery.
import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../../shared/config/configSchema.js';
import { credentialUrlForms } from '../../shared/http/redactUrl.js';
import { explainSmtpPingFailure } from './explainSmtpPingFailure.js';

export type SmtpPingResult =
  | { endpoint: string; ok: true; login: boolean }
  | { endpoint: string; ok: false; explanation: string };

/** A ping is a question: an answer within seconds, not the sender's 15 s per step. */
export const SMTP_PING_TIMEOUT_MS = 10_000;

export async function pingSmtp(
  smtp: SmtpConfig,
  env: NodeJS.ProcessEnv,
  timeoutMs: number = SMTP_PING_TIMEOUT_MS,
): Promise<SmtpPingResult> {
  const variable = smtp.url.env;
  const text = env[variable] ?? '';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      endpoint: 'smtp.url',
      ok: false,
      explanation: `${variable} does not hold a valid smtp:// or smtps:// URL`,
    };
  }
  const endpoint = `${url.protocol}//${url.host}`;
  const secrets = credentialUrlForms(text, url);
  const transport = nodemailer.createTransport({
    url: text,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    // Each step has its own limit; this one bounds them together.
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), timeoutMs);
  });
  try {
    await Promise.race([transport.verify(), deadline]);
    return { endpoint, ok: true, login: url.username !== '' };
  } catch (error) {
    return {
      endpoint,
      ok: false,
      explanation: explainSmtpPingFailure(error, { endpoint, variable, timeoutMs, secrets }),
    };
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
