import { describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../../shared/text/redactSecrets.js';

describe('SecretRedactor', () => {
  it('cuts every occurrence of every secret, with "…" unless told what stands in for it', () => {
    const redactor = new SecretRedactor(['s3cr3t-token', { value: 'other-key', mask: '[redacted]' }]);
    expect(redactor.redact('a s3cr3t-token, again s3cr3t-token, and other-key')).toBe(
      'a …, again …, and [redacted]',
    );
  });

  it('cuts the longest secret first, so a password inside its URL leaves nothing of the URL behind', () => {
    const url = 'smtp://notifier:pa55word@mail.example.org';
    const redactor = new SecretRedactor(['pa55word', { value: url, mask: '[SMTP URL]' }]);
    expect(redactor.redact(`cannot use ${url} (pa55word)`)).toBe('cannot use [SMTP URL] (…)');
  });

  it('ignores an empty secret, which would otherwise match between every two characters', () => {
    expect(new SecretRedactor(['', 'key1']).redact('no key1 here')).toBe('no … here');
  });

  it('leaves text alone when it holds no secret', () => {
    expect(new SecretRedactor([]).redact('plain text')).toBe('plain text');
    expect(new SecretRedactor(['absent']).redact('plain text')).toBe('plain text');
  });
});
