import { describe, expect, it } from 'vitest';
import { findUnsetSecretsInDraft } from '../../../cli/checkConfig/findUnsetSecretsInDraft.js';

const unset = (variable: string) => `environment variable ${variable} is not set or is empty`;

describe('findUnsetSecretsInDraft', () => {
  it('names the unset variables of a config the schema refused, at the paths findMissingSecrets uses', () => {
    const draft = {
      api: { baseUrl: 42 },
      organizations: [{ id: 'not-a-uuid', token: { env: 'NORTH_TOKEN' } }],
      subscribers: [
        {
          id: 'automation',
          type: 'webhook',
          url: 'hooks.example.org/orders',
          secret: { env: 'HOOK_SECRET' },
        },
        { id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' } },
        { id: 'rotating', type: 'webhook', secret: [{ env: 'NEW_SECRET' }, { env: 'OLD_SECRET' }] },
        { id: 'unset-list', type: 'webhook', secret: [{ env: 'A_SECRET' }, { env: 'B_SECRET' }] },
      ],
      smtp: { url: { env: 'SMTP_URL' } },
    };
    expect(
      findUnsetSecretsInDraft(draft, { SLACK_URL: 'https://hooks.slack.com/x', OLD_SECRET: 'set' }),
    ).toEqual([
      { path: '$.organizations[0].token', message: unset('NORTH_TOKEN') },
      { path: '$.subscribers[0].secret', message: unset('HOOK_SECRET') },
      { path: '$.subscribers[3].secret[0]', message: unset('A_SECRET') },
      { path: '$.subscribers[3].secret[1]', message: unset('B_SECRET') },
      { path: '$.smtp.url', message: unset('SMTP_URL') },
    ]);
  });

  it('passes over what is not a secret reference, which the schema reports itself', () => {
    const draft = {
      organizations: [{ token: 'tok_inline' }, null, { token: { env: '1BAD' } }],
      subscribers: 'none',
      smtp: [],
    };
    expect(findUnsetSecretsInDraft(draft, {})).toEqual([]);
    expect(findUnsetSecretsInDraft('text', {})).toEqual([]);
  });
});
