import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config/errors.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { describeSecretRef, secretRefKey } from '../../../shared/config/secretRef.js';
import { configWith } from '../../support/configFixtures.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function refusal(json: unknown): ConfigError {
  try {
    parseConfig(json, 'config.json');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

const INLINE =
  'secrets cannot be written inline: put the value in an environment variable and write { "env": "NAME" } here';

describe('secret references in the config', () => {
  it.each([
    { where: 'an organization token', path: ['organizations', 0, 'token'], at: '$.organizations[0].token' },
    { where: 'a webhook secret', path: ['subscribers', 0, 'secret'], at: '$.subscribers[0].secret' },
    {
      where: 'a Slack webhook URL',
      path: ['subscribers', 1, 'webhookUrl'],
      at: '$.subscribers[1].webhookUrl',
    },
    { where: 'the SMTP URL', path: ['smtp', 'url'], at: '$.smtp.url' },
  ])('refuses $where written inline, without repeating it', ({ path, at }) => {
    const error = refusal(configWith(path, SECRET));
    expect(error.problems).toEqual([{ path: at, message: INLINE }]);
    expect(error.message).not.toContain(SECRET);
  });

  it('refuses an inline secret inside a rotation list at its own index', () => {
    const error = refusal(configWith(['subscribers', 0, 'secret'], [{ env: 'NEW_SECRET' }, SECRET]));
    expect(error.problems).toEqual([{ path: '$.subscribers[0].secret[1]', message: INLINE }]);
    expect(error.message).not.toContain(SECRET);
  });

  it('refuses an empty rotation list', () => {
    expect(refusal(configWith(['subscribers', 0, 'secret'], [])).problems).toEqual([
      { path: '$.subscribers[0].secret', message: 'list at least one secret' },
    ]);
  });

  it('refuses an environment variable name that is not one, without repeating it', () => {
    const error = refusal(configWith(['organizations', 0, 'token'], { env: SECRET.replace('_', '-') }));
    expect(error.problems).toEqual([
      {
        path: '$.organizations[0].token.env',
        message: 'must name an environment variable: letters, digits and "_", not starting with a digit',
      },
    ]);
    expect(error.message).not.toContain('MfKQ9r8');
  });

  it('refuses a secret given under an unknown key, naming only the key', () => {
    const error = refusal(configWith(['organizations', 0, 'token'], { value: SECRET }));
    // In the file's order: the unknown key is there, the missing one after it.
    expect(error.problems).toEqual([
      {
        path: '$.organizations[0].token',
        message: 'unknown key "value"; known keys: env',
        place: '$.organizations[0].token.value',
      },
      { path: '$.organizations[0].token.env', message: 'required' },
    ]);
    expect(error.message).not.toContain(SECRET);
  });

  it('refuses a secret reference of the wrong kind', () => {
    expect(refusal(configWith(['subscribers', 1, 'webhookUrl'], 12)).problems).toEqual([
      {
        path: '$.subscribers[1].webhookUrl',
        message: 'expected a secret reference such as { "env": "NAME" }',
      },
    ]);
  });

  it('keys references by the variable they name', () => {
    expect(secretRefKey({ env: 'HOOK_SECRET' })).toBe(secretRefKey({ env: 'HOOK_SECRET' }));
    expect(secretRefKey({ env: 'HOOK_SECRET' })).not.toBe(secretRefKey({ env: 'SLACK_URL' }));
  });

  it('describes a reference by its variable name', () => {
    expect(describeSecretRef({ env: 'HOOK_SECRET' })).toBe('environment variable HOOK_SECRET');
  });
});
