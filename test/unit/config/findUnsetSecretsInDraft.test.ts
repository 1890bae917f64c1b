import { describe, expect, it } from 'vitest';
import { findUnsetSecretsInDraft } from '../../../shared/config/findUnsetSecretsInDraft.js';

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

  describe('for a command that needs some of the secrets', () => {
    const draft = {
      organizations: [
        { name: 'North', token: { env: 'NORTH_TOKEN' } },
        { name: 'South', token: { env: 'SOUTH_TOKEN' } },
      ],
      subscribers: [
        { id: 'automation', type: 'webhook', secret: { env: 'HOOK_SECRET' } },
        { id: 'office', type: 'email', to: 'x' },
        { id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' } },
      ],
      smtp: { url: { env: 'SMTP_URL' } },
    };

    it("names one subscriber's secrets only, and the SMTP URL when it sends e-mail (send-test)", () => {
      expect(findUnsetSecretsInDraft(draft, {}, { subscriber: 'kitchen' })).toEqual([
        { path: '$.subscribers[2].webhookUrl', message: unset('SLACK_URL') },
      ]);
      expect(findUnsetSecretsInDraft(draft, {}, { subscriber: 'office' })).toEqual([
        { path: '$.smtp.url', message: unset('SMTP_URL') },
      ]);
    });

    it('names the token of the organization picked only (orders with a config)', () => {
      const south = (organizations: readonly (Record<string, unknown> | undefined)[]) =>
        organizations.findIndex((organization) => organization?.name === 'South');
      expect(findUnsetSecretsInDraft(draft, {}, { organization: south })).toEqual([
        { path: '$.organizations[1].token', message: unset('SOUTH_TOKEN') },
      ]);
      expect(findUnsetSecretsInDraft(draft, {}, { organization: () => -1 })).toEqual([]);
    });
  });
});
