// Delivers one event to one e-mail subscriber through SMTP (nodemailer, pooled): one message per event,
// its Message-ID derived from the event id so a retried send is the same message to mail clients, and
// the server's answer turned into a DeliveryOutcome. Retrying is not done here: the outbox does it.
// nodemailer is imported on the first send: every CLI command and Lambda would otherwise compile it at start.
import type { NodemailerError, SendMailOptions, SentMessageInfo } from 'nodemailer';
import { networkWords } from '../../errors/networkWords.js';
import type { DigestEvent } from '../../events/digestEvent.js';
import type { NotifierEvent } from '../../events/notifierEvent.js';
import { eventForSubscriber } from '../../events/orderSummary.js';
import { credentialUrlForms } from '../../http/redactUrl.js';
import { excerpt } from '../../text/excerpt.js';
import { SecretRedactor } from '../../text/redactSecrets.js';
import type { DeliveryOutcome, EventSender } from '../deliveryOutcome.js';
import { SmtpConfigError } from '../errors.js';
import { defaultHighlightWords, type HighlightWordsOf, highlightWordsFor } from '../highlightWordsOf.js';
import { formatDigestEmail } from './digestEmail.js';
import { formatEmail } from './emailMessage.js';
import type { EmailMessage } from './emailText.js';

/** Connecting, the greeting and every silence afterwards; nodemailer's own defaults run to minutes. */
export const SMTP_TIMEOUT_MS = 15_000;
/** How much of a server reply or error message a reason quotes. */
const EXCERPT_CHARS = 200;
/** Errors about the message itself rather than the server: sending it again fails the same way. */
const MESSAGE_ERRORS = new Set(['EENVELOPE', 'EMESSAGE', 'EMAXRECIPIENTS', 'ESTREAM']);

/** The part of a nodemailer transport the sender uses; a pooled SMTP transport by default. */
export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<SentMessageInfo>;
  close(): void;
}

export interface SmtpEmailSenderOptions {
  subscriberId: string;
  /** Recipients, all on the one message sent per event. */
  to: readonly string[];
  /** The From header, e.g. `"Meal orders" <orders@school.example>`. */
  from: string;
  /** `smtp://user:password@host:port` or `smtps://…`; it holds the password, so reasons never quote it. */
  smtpUrl: string;
  /** Whether parent e-mail and phone appear in the mail. */
  includeContactDetails: boolean;
  /** Each organization's words that flag a note (its config's). @default DEFAULT_HIGHLIGHT_WORDS for all */
  highlightWords?: HighlightWordsOf;
  /** @default a pooled nodemailer transport for `smtpUrl`, private to this sender (close it with `close()`) */
  transport?: MailTransport;
  /** @default SMTP_TIMEOUT_MS */
  timeoutMs?: number;
}

export class SmtpEmailSender implements EventSender {
  readonly subscriberId: string;
  readonly #to: readonly string[];
  readonly #from: string;
  readonly #includeContactDetails: boolean;
  readonly #highlightWords: HighlightWordsOf;
  /** How reasons name the server: scheme, host and port, no credentials. */
  readonly #endpoint: string;
  /** Cuts every form of the SMTP URL's credentials out of a reason. */
  readonly #redactor: SecretRedactor;
  readonly #messageIdDomain: string;
  /** The transport given, or the pool made on the first send. */
  #transport: Promise<MailTransport> | undefined;
  readonly #makeTransport: () => Promise<MailTransport>;
  readonly #ownsTransport: boolean;

  /** @throws SmtpConfigError, RangeError (timeout): misconfiguration, found up front */
  constructor(options: SmtpEmailSenderOptions) {
    this.subscriberId = options.subscriberId;
    if (options.to.length === 0) throw new SmtpConfigError(options.subscriberId, 'no recipients');
    if (options.from.trim() === '') throw new SmtpConfigError(options.subscriberId, 'no sender (smtp.from)');
    const url = parseSmtpUrl(options.subscriberId, options.smtpUrl);
    this.#to = [...options.to];
    this.#from = options.from;
    this.#includeContactDetails = options.includeContactDetails;
    this.#highlightWords = options.highlightWords ?? defaultHighlightWords;
    this.#endpoint = `${url.protocol}//${url.host}`;
    this.#redactor = new SecretRedactor(credentialUrlForms(options.smtpUrl, url));
    this.#messageIdDomain = domainOf(options.from);
    const timeoutMs = options.timeoutMs ?? SMTP_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RangeError(
        `e-mail subscriber "${options.subscriberId}": timeoutMs must be a positive number`,
      );
    }
    this.#ownsTransport = options.transport === undefined;
    if (options.transport) this.#transport = Promise.resolve(options.transport);
    const smtpUrl = options.smtpUrl;
    this.#makeTransport = async () => {
      const { default: nodemailer } = await import('nodemailer');
      return nodemailer.createTransport({
        url: smtpUrl,
        pool: true,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        // Nothing here attaches files or URLs; refusing them keeps it that way.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    };
  }

  async send(event: NotifierEvent): Promise<DeliveryOutcome> {
    const message = formatEmail(
      eventForSubscriber(event, this.#includeContactDetails),
      highlightWordsFor(event, this.#highlightWords),
    );
    return this.#sendMail(message, event);
  }

  /** A digest names orders by reference only, so it carries no contact details to leave out. */
  async sendDigest(digest: DigestEvent): Promise<DeliveryOutcome> {
    return this.#sendMail(formatDigestEmail(digest), digest);
  }

  async #sendMail(
    { subject, text, html }: EmailMessage,
    event: { id: string; type: string },
  ): Promise<DeliveryOutcome> {
    const eventId = headerSafe(event.id);
    try {
      this.#transport ??= this.#makeTransport();
      const transport = await this.#transport;
      const info = await transport.sendMail({
        from: this.#from,
        to: [...this.#to],
        subject,
        text,
        html,
        messageId: messageIdFor(event.id, this.subscriberId, this.#messageIdDomain),
        headers: {
          'X-Meal-Order-Event-Id': eventId,
          'X-Meal-Order-Event-Type': headerSafe(event.type),
          // RFC 3834: keeps vacation responders from answering a notification.
          'Auto-Submitted': 'auto-generated',
        },
      });
      // Some recipients refused while others took it is still a delivery: sending again would give the
      // others a second copy, and the refused ones would most likely refuse again.
      const status = replyCode(info.response);
      return status === undefined ? { kind: 'delivered' } : { kind: 'delivered', status };
    } catch (error) {
      return this.#classify(error as NodemailerError);
    }
  }

  /** Closes the connection pool if this sender created it. */
  async close(): Promise<void> {
    if (this.#ownsTransport && this.#transport) (await this.#transport).close();
  }

  /**
   * SMTP's own reply classes decide (RFC 5321): 4xx is transient, 5xx permanent, except 503 (bad command
   * sequence, a session problem that a new connection clears). No reply at all (refused connection,
   * timeout, dropped socket) is transient too.
   */
  #classify(error: NodemailerError): DeliveryOutcome {
    const code = typeof error?.code === 'string' ? error.code : undefined;
    const status = typeof error?.responseCode === 'number' ? error.responseCode : undefined;
    if (code === 'EAUTH' || code === 'ENOAUTH') {
      // A refused login is about the server account, not this event: dead-lettering would discard every
      // event until someone fixed the password, while retrying delivers them once it is fixed.
      const reply = error.response ? `: ${this.#excerpt(error.response)}` : '';
      const reason = `${this.#endpoint} refused the SMTP login${reply}; check the user and password in smtp.url`;
      return status === undefined ? { kind: 'retry', reason } : { kind: 'retry', reason, status };
    }
    if (status !== undefined) {
      const command = error.command ? ` to ${this.#excerpt(error.command)}` : '';
      const reply = this.#excerpt(error.response ?? String(status));
      const reason = `${this.#endpoint} answered ${status}${command}: ${reply}`;
      const permanent = status >= 500 && status < 600 && status !== 503;
      return { kind: permanent ? 'dead' : 'retry', reason, status };
    }
    if (code !== undefined && MESSAGE_ERRORS.has(code)) {
      return {
        kind: 'dead',
        reason: `the message could not be sent (${code}): ${this.#excerpt(messageOf(error))}`,
      };
    }
    return { kind: 'retry', reason: this.#failureReason(error, code) };
  }

  #failureReason(error: NodemailerError, code: string | undefined): string {
    const cause = error?.originalCode ?? error?.code;
    if (code === 'ETIMEDOUT') {
      const during = error.timeoutType ? ` (${error.timeoutType.toLowerCase().replaceAll('_', ' ')})` : '';
      return `${this.#endpoint} timed out${during}`;
    }
    if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'EDNS' || code === 'ETLS') {
      return `cannot reach ${this.#endpoint} (${networkWords(cause ?? code)})`;
    }
    const detail = this.#excerpt(messageOf(error));
    return `sending through ${this.#endpoint} failed${cause ? ` (${cause})` : ''}: ${detail}`;
  }

  /** One line, shortened, with nothing of the SMTP URL's credentials in it. */
  #excerpt(text: string): string {
    return excerpt(this.#redactor.redact(text), EXCERPT_CHARS);
  }
}

function parseSmtpUrl(subscriberId: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not quoted: a mistyped URL still holds its password.
    throw new SmtpConfigError(subscriberId, 'smtp.url is not a valid URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new SmtpConfigError(
      subscriberId,
      `smtp.url must use smtp or smtps, not "${url.protocol.slice(0, -1)}"`,
    );
  }
  if (!url.hostname) throw new SmtpConfigError(subscriberId, 'smtp.url has no host');
  return url;
}

/**
 * `<event id.subscriber id@sender's domain>`: the same on every attempt, so clients drop a duplicate of
 * a retried send, yet distinct per subscriber, whose messages differ (contact details, recipients) and
 * must not be taken for one another.
 */
export function messageIdFor(eventId: string, subscriberId: string, domain: string): string {
  const atom = (text: string) => text.replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/g, '-');
  return `<${atom(eventId)}.${atom(subscriberId)}@${domain}>`;
}

/** The domain of the From address, e.g. `school.example` for `"Orders" <orders@school.example>`. */
function domainOf(from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1];
  return domain ?? 'meal-order-notifier.invalid';
}

/** Printable ASCII without spaces: event ids and types come from data, and a line break would add a header. */
function headerSafe(text: string): string {
  return text.replace(/[^\x21-\x7e]/g, '');
}

function replyCode(response: unknown): number | undefined {
  const match = typeof response === 'string' ? /^(\d{3})/.exec(response) : null;
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
