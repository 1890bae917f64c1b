// Why the SMTP server failed check-config's ping, in plain words, with what to check in the variable
// holding smtp.url. Nothing of the URL's password is ever quoted.
import type { NodemailerError } from 'nodemailer';
import { networkWords } from '../../shared/errors/networkWords.js';
import { excerpt as oneLineExcerpt } from '../../shared/text/excerpt.js';
import { type SecretForm, SecretRedactor } from '../../shared/text/redactSecrets.js';

export interface SmtpPingTarget {
  /** `smtp://host:port`, without credentials. */
  endpoint: string;
  /** The environment variable holding smtp.url. */
  variable: string;
  timeoutMs: number;
  /** Forms of the credentials to cut from anything the server or the library says. */
  secrets: readonly (SecretForm | string)[];
}

const EXCERPT_CHARS = 200;

export function explainSmtpPingFailure(error: unknown, target: SmtpPingTarget): string {
  const { endpoint, variable } = target;
  const failure = (error ?? {}) as NodemailerError;
  const code = typeof failure.code === 'string' ? failure.code : undefined;
  const cause = typeof failure.originalCode === 'string' ? failure.originalCode : undefined;
  const reply = failure.response ? `: ${excerpt(failure.response, target.secrets)}` : '';
  if (code === 'EAUTH') {
    return `${endpoint} refused the login${reply}; check the user and password in ${variable}`;
  }
  if (code === 'ETIMEDOUT') {
    return `no answer from ${endpoint} within ${target.timeoutMs / 1000} s: check the host and port in ${variable}, and that this machine can reach it (firewalls and many networks block port 25; submission is 587, or 465 with smtps://)`;
  }
  if (code === 'EDNS') {
    return `cannot find ${endpoint} (${networkWords(cause ?? 'ENOTFOUND')}): check the host in ${variable}`;
  }
  if (code === 'ETLS' || /ssl|tls|wrong version number/i.test(messageOf(error))) {
    return `the TLS handshake with ${endpoint} failed (${excerpt(messageOf(error), target.secrets)}): use smtps:// for port 465 and smtp:// for 587 or 25, in ${variable}`;
  }
  if (code === 'ESOCKET' || code === 'ECONNECTION') {
    const why = cause ? networkWords(cause) : excerpt(messageOf(error), target.secrets);
    return `cannot reach ${endpoint} (${why}): check the host and port in ${variable}`;
  }
  if (typeof failure.responseCode === 'number') {
    return `${endpoint} answered ${failure.responseCode}${reply}`;
  }
  return `${endpoint}: ${excerpt(messageOf(error), target.secrets)}`;
}

function excerpt(text: string, secrets: readonly (SecretForm | string)[]): string {
  return oneLineExcerpt(new SecretRedactor(secrets).redact(text), EXCERPT_CHARS);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
