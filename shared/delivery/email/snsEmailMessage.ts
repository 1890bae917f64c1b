// The e-mail as SNS carries it on AWS: a per-protocol body for `Publish` with `MessageStructure=json`
// (`default` for the SQS queues, `email` for the e-mail subscriptions) and a Subject SNS accepts. SNS
// e-mail is plain text only, so the HTML part of `formatEmail` has no place here.
import { type DigestEvent, isDigest } from '../../events/digestEvent.js';
import type { NotifierEvent } from '../../events/notifierEvent.js';
import { eventForSubscriber } from '../../events/orderSummary.js';
import { defaultHighlightWords, type HighlightWordsOf, highlightWordsFor } from '../highlightWordsOf.js';
import { digestSubject, formatDigestText } from './digestEmail.js';
import { emailSubject, formatEmail } from './emailMessage.js';

/**
 * SNS refuses a Subject that is not printable ASCII, starts with a space, holds a line break or is not
 * "less than 100 characters long" (Publish API reference), so 99 is the most it gets.
 */
export const SNS_SUBJECT_MAX_LENGTH = 99;

/**
 * The `Message` of an SNS `Publish` with `MessageStructure=json`.
 *
 * `default` is the CloudEvent JSON, as given: the SQS consumers behind it (Slack and webhook delivery)
 * know which subscriber they deliver to and apply that subscriber's `includeContactDetails` themselves.
 *
 * `email` is the text e-mail, subject line first. One SNS e-mail subscription list is shared by every
 * e-mail subscriber, so nobody's opt-in can be honoured there: it is always built from
 * `eventForSubscriber(event, false)` and never carries parent e-mail or phone. Its notes are flagged with
 * the highlight words of the event's organization, as the local SMTP sender flags them.
 */
export function snsMessageBody(event: NotifierEvent, highlightWords: HighlightWordsOf): string {
  const { subject, text } = formatEmail(
    eventForSubscriber(event, false),
    highlightWordsFor(event, highlightWords),
  );
  return JSON.stringify({ default: JSON.stringify(event), email: `${subject}\n\n${text}` });
}

/**
 * The `Message` of a digest's publish: the digest CloudEvent as `default`, its text e-mail as `email`. A
 * digest names orders by reference only, so the one body serves every recipient.
 */
export function snsDigestMessageBody(digest: DigestEvent): string {
  const { subject, text } = formatDigestText(digest);
  return JSON.stringify({ default: JSON.stringify(digest), email: `${subject}\n\n${text}` });
}

/**
 * The e-mail subject made SNS-safe: transliterated to printable ASCII and cut to fit. An update's subject
 * says when a note it wrote is flagged, with the organization's words.
 */
export function snsSubject(
  event: NotifierEvent | DigestEvent,
  highlightWords: HighlightWordsOf = defaultHighlightWords,
): string {
  const subject = isDigest(event)
    ? digestSubject(event)
    : emailSubject(event, highlightWordsFor(event, highlightWords));
  const ascii = toPrintableAscii(subject);
  // Every subject starts with "New order", "Order", "After closing", "Prep summary", "Prep changes" or "Digest", so it
  // always begins with a letter as SNS requires.
  if (ascii.length <= SNS_SUBJECT_MAX_LENGTH) return ascii;
  return `${ascii.slice(0, SNS_SUBJECT_MAX_LENGTH - 3).trimEnd()}...`;
}

/** Characters that Unicode decomposition does not reduce to ASCII but that have a usual spelling in it. */
const SPELLED: Record<string, string> = {
  '—': '-',
  '–': '-',
  '‒': '-',
  '―': '-',
  '−': '-',
  '‐': '-',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '«': '"',
  '»': '"',
  '…': '...',
  '×': 'x',
  '€': 'EUR',
  '£': 'GBP',
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Œ: 'OE',
  œ: 'oe',
  Ø: 'O',
  ø: 'o',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ð: 'D',
  ð: 'd',
  Þ: 'Th',
  þ: 'th',
};

/**
 * "Cantina São João — 2.º" → "Cantina Sao Joao - 2.o": accents dropped by decomposition, a few letters
 * and punctuation spelled out, anything else left outside ASCII shown as "?".
 */
function toPrintableAscii(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^\x20-\x7e]/g, (char) => SPELLED[char] ?? (/\s/.test(char) ? ' ' : '?'))
      // Only the ones no table covers are left as "?"; a run of them says no more than one.
      .replace(/\?{2,}/g, '?')
      .replace(/ {2,}/g, ' ')
      .trim()
  );
}
