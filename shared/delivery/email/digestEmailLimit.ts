// What a digest e-mail sent by the local runtime must fit (splitDigest.ts): its subject, text and HTML
// parts together at most 1 MB. Mail servers refuse messages past their own limit (Postfix's default is
// 10 MB, counted after MIME encoding, which can add a third), and a mail client reads a message this size
// at ease; the AWS runtime meets SNS's smaller limit instead.
import type { DigestSizeLimit } from '../digest/splitDigest.js';
import { formatDigestEmail } from './digestEmail.js';

export const EMAIL_DIGEST_MAX_BYTES = 1_000_000;

export const EMAIL_DIGEST_LIMIT: DigestSizeLimit = {
  name: 'e-mail',
  maxBytes: EMAIL_DIGEST_MAX_BYTES,
  sizeOf: (message) => {
    const { subject, text, html } = formatDigestEmail(message);
    return Buffer.byteLength(subject) + Buffer.byteLength(text) + Buffer.byteLength(html);
  },
};
