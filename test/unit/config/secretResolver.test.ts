import { describe, expect, it } from 'vitest';
import type { Config } from '../../../shared/config/configSchema.js';
import { MissingSecretError } from '../../../shared/config/errors.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import type { SecretRef } from '../../../shared/config/secretRef.js';
import { secretReferences, subscriberSecrets } from '../../../shared/config/secretReferences.js';
import {
  EnvSecretResolver,
  findMissingSecrets,
  resolveSecrets,
  type SecretResolver,
} from '../../../shared/config/secretResolver.js';
import { configWith, exampleConfig } from '../../support/configFixtures.js';

const ENV = {
  NORTH_TOKEN: 'tok-north-123',
  HOOK_SECRET: 'whsec_c2VjcmV0LWhvb2s=',
  SLACK_URL: 'https://hooks.slack.test/T0/B0/abc',
  SMTP_URL: 'smtp://user:pw@mail.example.test:587',
};

function example(): Config {
  return parseConfig(exampleConfig());
}

describe('EnvSecretResolver', () => {
  it('reads the named environment variable', async () => {
    await expect(new EnvSecretResolver(ENV).resolve({ env: 'HOOK_SECRET' })).resolves.toBe(ENV.HOOK_SECRET);
  });

  it('refuses an unset variable, naming it and the config path', async () => {
    const error = await new EnvSecretResolver({})
      .resolve({ env: 'HOOK_SECRET' }, '$.subscribers[0].secret')
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MissingSecretError);
    expect(error).toMatchObject({ variable: 'HOOK_SECRET', path: '$.subscribers[0].secret' });
    expect((error as Error).message).toBe(
      'environment variable HOOK_SECRET is not set or is empty (needed by $.subscribers[0].secret)',
    );
  });

  it('refuses an empty variable', async () => {
    await expect(new EnvSecretResolver({ HOOK_SECRET: '' }).resolve({ env: 'HOOK_SECRET' })).rejects.toThrow(
      MissingSecretError,
    );
  });

  it('reads process.env by default, at resolve time', async () => {
    const resolver = new EnvSecretResolver();
    process.env.CONFIG_TEST_SECRET = 'set-later';
    try {
      await expect(resolver.resolve({ env: 'CONFIG_TEST_SECRET' })).resolves.toBe('set-later');
    } finally {
      delete process.env.CONFIG_TEST_SECRET;
    }
  });
});

describe('findMissingSecrets', () => {
  it('lists every unset or empty variable with its path, and nothing when all are set', () => {
    expect(findMissingSecrets(example(), ENV)).toEqual([]);
    expect(findMissingSecrets(example(), { NORTH_TOKEN: ENV.NORTH_TOKEN, SLACK_URL: '' })).toEqual([
      { path: '$.subscribers[0].secret', variable: 'HOOK_SECRET' },
      { path: '$.subscribers[1].webhookUrl', variable: 'SLACK_URL' },
      { path: '$.smtp.url', variable: 'SMTP_URL' },
    ]);
  });

  it('reports no value of the variables that are set', () => {
    const missing = JSON.stringify(findMissingSecrets(example(), { ...ENV, SMTP_URL: undefined }));
    for (const value of Object.values(ENV)) expect(missing).not.toContain(value);
    expect(missing).toContain('SMTP_URL');
  });

  it('names each use of a shared variable', () => {
    const json = exampleConfig();
    json.organizations.push({
      id: '0b6e1d7a-8c3f-4a29-9e51-7d2c4b8a6f13',
      name: 'South',
      token: { env: 'NORTH_TOKEN' },
      timeZone: 'UTC',
    });
    expect(findMissingSecrets(parseConfig(json), { ...ENV, NORTH_TOKEN: undefined })).toEqual([
      { path: '$.organizations[0].token', variable: 'NORTH_TOKEN' },
      { path: '$.organizations[1].token', variable: 'NORTH_TOKEN' },
    ]);
  });
});

describe('secretReferences and subscriberSecrets', () => {
  it('point at each secret of a rotation list by index', () => {
    const config = parseConfig(
      configWith(['subscribers', 0, 'secret'], [{ env: 'NEW_SECRET' }, { env: 'OLD_SECRET' }]),
    );
    expect(secretReferences(config).map(({ path, ref }) => [path, ref.env])).toEqual([
      ['$.organizations[0].token', 'NORTH_TOKEN'],
      ['$.subscribers[0].secret[0]', 'NEW_SECRET'],
      ['$.subscribers[0].secret[1]', 'OLD_SECRET'],
      ['$.subscribers[1].webhookUrl', 'SLACK_URL'],
      ['$.smtp.url', 'SMTP_URL'],
    ]);
  });

  it('give each subscriber type its own secrets', () => {
    const [webhook, slack, email] = example().subscribers;
    if (!webhook || !slack || !email) throw new Error('the example has three subscribers');
    expect(subscriberSecrets(webhook)).toEqual([{ env: 'HOOK_SECRET' }]);
    expect(subscriberSecrets(slack)).toEqual([{ env: 'SLACK_URL' }]);
    expect(subscriberSecrets(email)).toEqual([]);
  });
});

describe('resolveSecrets', () => {
  it('resolves every reference once and hands the values out by reference', async () => {
    const json = exampleConfig();
    json.organizations.push({
      id: '0b6e1d7a-8c3f-4a29-9e51-7d2c4b8a6f13',
      name: 'South',
      token: { env: 'NORTH_TOKEN' },
      timeZone: 'UTC',
    });
    const config = parseConfig(json);
    const asked: string[] = [];
    const resolver: SecretResolver = {
      async resolve(ref: SecretRef) {
        asked.push(ref.env);
        return `value of ${ref.env}`;
      },
    };
    const secrets = await resolveSecrets(config, resolver);
    expect(asked.sort()).toEqual(['HOOK_SECRET', 'NORTH_TOKEN', 'SLACK_URL', 'SMTP_URL']);
    expect(secrets.get(config.organizations[1]?.token ?? { env: 'NONE' })).toBe('value of NORTH_TOKEN');
    expect(secrets.get({ env: 'SLACK_URL' })).toBe('value of SLACK_URL');
    expect(() => secrets.get({ env: 'ELSEWHERE' })).toThrow(
      'secret reference env:ELSEWHERE was not resolved',
    );
  });

  it('fails with the first missing secret in document order', async () => {
    const error = await resolveSecrets(example(), new EnvSecretResolver({ NORTH_TOKEN: 'x' })).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(MissingSecretError);
    expect(error).toMatchObject({ variable: 'HOOK_SECRET', path: '$.subscribers[0].secret' });
  });
});
