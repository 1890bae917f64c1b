import { describe, expect, it } from 'vitest';
import { credentialUrlForms, queryForms } from '../../../shared/http/redactUrl.js';
import { SecretRedactor } from '../../../shared/text/redactSecrets.js';

describe('credentialUrlForms', () => {
  it('cuts a Slack webhook URL whole, as given, as parsed, and by its path, which holds the token', () => {
    const given = ' https://hooks.slack.com/services/T0/B0/sEcReT ';
    const redactor = new SecretRedactor(credentialUrlForms(given, new URL(given.trim()), '[webhook URL]'));
    expect(redactor.redact(`POST ${given.trim()} failed; path /services/T0/B0/sEcReT`)).toBe(
      'POST [webhook URL] failed; path [webhook URL]',
    );
  });

  it('cuts an SMTP URL and its password, encoded and decoded, and leaves the host', () => {
    const given = 'smtp://notifier:pa55%2Fword@mail.example.org:587';
    const redactor = new SecretRedactor(credentialUrlForms(given, new URL(given)));
    expect(redactor.redact(`login to ${given} with pa55/word or pa55%2Fword refused`)).toBe(
      'login to … with … or … refused',
    );
    expect(redactor.redact('mail.example.org:587 refused')).toBe('mail.example.org:587 refused');
  });

  it('never cuts a bare "/" or a password too short to be one', () => {
    const given = 'smtp://u:pw@mail.example.org/';
    const redactor = new SecretRedactor(credentialUrlForms(given, new URL(given)));
    expect(redactor.redact('a/b pw')).toBe('a/b pw');
  });
});

describe('queryForms', () => {
  it("keeps a webhook URL's origin and path, and cuts its query and every value long enough to be a token", () => {
    const url = new URL('https://receiver.example/hooks/orders?token=tok_7c1e0d5b&v=1');
    const redactor = new SecretRedactor(queryForms(url));
    expect(redactor.redact(`POST ${url.href} refused`)).toBe('POST https://receiver.example refused');
    expect(redactor.redact(`for /hooks/orders${url.search}`)).toBe('for /hooks/orders?…');
    expect(redactor.redact('token tok_7c1e0d5b, v 1')).toBe('token …, v 1');
  });
});
