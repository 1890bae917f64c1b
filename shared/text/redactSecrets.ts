// Cuts secrets out of text bound for a reason, an error, a log line or an event: the one redaction the
// Admin API client and the webhook and Slack senders (through the HTTP transport), the SMTP sender and
// check-config all use. Callers say what is secret and what stands in for it; this is how it is cut.

/** A secret, and what stands in for it where it is cut out. */
export interface SecretForm {
  value: string;
  /** @default '…' */
  mask?: string;
}

export class SecretRedactor {
  /** Longest first, so a secret inside a longer one (a password inside its URL) leaves nothing behind. */
  readonly #forms: ReadonlyArray<Required<SecretForm>>;

  /** Empty values are ignored: they would match everywhere. */
  constructor(secrets: Iterable<SecretForm | string>) {
    const byValue = new Map<string, string>();
    for (const secret of secrets) {
      const form = typeof secret === 'string' ? { value: secret } : secret;
      if (form.value.length > 0 && !byValue.has(form.value)) byValue.set(form.value, form.mask ?? '…');
    }
    this.#forms = [...byValue]
      .map(([value, mask]) => ({ value, mask }))
      .sort((a, b) => b.value.length - a.value.length);
  }

  redact(text: string): string {
    let redacted = text;
    for (const { value, mask } of this.#forms) redacted = redacted.replaceAll(value, mask);
    return redacted;
  }
}
