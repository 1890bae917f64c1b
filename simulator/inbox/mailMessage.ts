// Reads a message as an SMTP server receives it, just enough for what nodemailer writes: headers (unfolded,
// RFC 2047 encoded words decoded), nested multiparts, base64 and quoted-printable bodies, and the text
// and HTML parts found in them.

export interface MailMessage {
  /** Header names lower-cased, values unfolded and decoded. */
  headers: Map<string, string>;
  /** The decoded text/plain part, if any. */
  text: string | undefined;
  /** The decoded text/html part, if any. */
  html: string | undefined;
}

export function parseMailMessage(raw: string): MailMessage {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .map((part) => parseMailMessage(part.replace(/^\r?\n/, '')));
    return {
      headers,
      text: parts.find((part) => part.text !== undefined)?.text,
      html: parts.find((part) => part.html !== undefined)?.html,
    };
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit');
  return {
    headers,
    text: /^text\/plain/i.test(type) ? decoded : undefined,
    html: /^text\/html/i.test(type) ? decoded : undefined,
  };
}

function decodeBody(body: string, encoding: string): string {
  if (/^base64$/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/^quoted-printable$/i.test(encoding)) return decodeQuotedPrintable(body.replace(/\r?\n$/, ''));
  return body.replace(/\r?\n$/, '').replace(/\r\n/g, '\n');
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '').replace(/\r\n/g, '\n');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); white space between two of them is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(
      /=\?([^?]+)\?([QB])\?([^?]*)\?=/gi,
      (_match, _charset: string, encoding: string, data: string) =>
        encoding.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
