// `meal-notifier put-secrets` and its tokens-only form `put-tokens`: one command puts 450 organizations'
// tokens and 300 subscribers' secrets into the stack's shards (Secrets Manager mocked), each shard whole
// and holding exactly the values its functions read from it; a file short of a value, or naming one the
// config does not use, writes nothing and names it; a shard the stack lacks names the secret; an upgraded
// stack's old secret of its own per reference can supply the subscribers' values.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { secretShardsOf, tokenShardsOf } from '../../../shared/contracts/secretShards.js';
import { exampleConfig } from '../../support/configFixtures.js';
import { runCliInProcess } from '../../support/runCliInProcess.js';

const secretsManager = mockClient(SecretsManagerClient);
afterAll(() => secretsManager.restore());

const names = Array.from({ length: 450 }, (_, n) => `SCHOOL_${n}_TOKEN`);
const tokens = Object.fromEntries(names.map((name, n) => [name, `tok-${n}-secret`]));

describe('meal-notifier put-tokens', () => {
  let dir: string;
  let configPath: string;
  const tokensFile = async (content: unknown) => {
    const path = join(dir, 'tokens.json');
    await writeFile(path, JSON.stringify(content));
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'put-tokens-'));
    const config = exampleConfig();
    const [north] = config.organizations;
    config.organizations = names.map((name, n) => ({
      ...(north as NonNullable<typeof north>),
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      name: `School ${n}`,
      token: { env: name },
    }));
    configPath = join(dir, 'notifier.json');
    await writeFile(configPath, JSON.stringify(config));
    vi.stubEnv('AWS_REGION', 'eu-west-1');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
  });
  afterEach(() => secretsManager.reset());
  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts every token in the shard the poller reads it from, one command for all, printing no token', async () => {
    secretsManager.on(PutSecretValueCommand).resolves({});
    const file = await tokensFile(tokens);

    const result = await runCliInProcess([
      'put-tokens',
      '--config',
      configPath,
      '--stack',
      'Prod',
      '--file',
      file,
    ]);

    expect(result.code).toBe(0);
    const calls = secretsManager.commandCalls(PutSecretValueCommand).map(({ args }) => args[0].input);
    expect(calls.map(({ SecretId }) => SecretId)).toEqual([
      'Prod/organization-tokens',
      'Prod/organization-tokens-2',
      'Prod/organization-tokens-3',
    ]);
    const shards = tokenShardsOf(names);
    const put = new Map<string, string>();
    for (const { SecretId, SecretString } of calls) {
      for (const [name, value] of Object.entries(
        JSON.parse(String(SecretString)) as Record<string, string>,
      )) {
        expect(`Prod/${shards.secretOf(name)}`).toBe(SecretId);
        put.set(name, value);
      }
    }
    expect(Object.fromEntries(put)).toEqual(tokens);
    expect(result.stderr).toContain('the tokens of 450 organizations put in 3 secrets');
    expect(result.stderr + result.stdout).not.toContain('tok-');
  });

  it('writes nothing when the file lacks a token, naming the organization and where the config needs it', async () => {
    const { SCHOOL_7_TOKEN: _left, ...rest } = tokens;
    const file = await tokensFile(rest);

    const result = await runCliInProcess([
      'put-tokens',
      '--config',
      configPath,
      '--secrets-prefix',
      'prod/notifier/',
      '--file',
      file,
    ]);

    expect(result.code).not.toBe(0);
    expect(secretsManager.commandCalls(PutSecretValueCommand)).toHaveLength(0);
    expect(result.stderr).toContain(
      'SCHOOL_7_TOKEN: no token given (needed by $.organizations[7].token, School 7)',
    );
    expect(result.stderr).not.toContain('tok-');
  });

  it('names the secret a deployment has not created yet, and what to check', async () => {
    secretsManager.on(PutSecretValueCommand).rejects(
      Object.assign(new Error("Secrets Manager can't find the specified secret."), {
        name: 'ResourceNotFoundException',
      }),
    );
    const file = await tokensFile(tokens);

    const result = await runCliInProcess([
      'put-tokens',
      '--config',
      configPath,
      '--stack',
      'Prod',
      '--file',
      file,
    ]);

    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /cannot reach the secret Prod\/organization-tokens: ResourceNotFoundException: .*it does not exist/,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

const hookNames = Array.from({ length: 300 }, (_, n) => `HOOKS_${n}_SECRET`);
const subscriberValues: Record<string, string> = {
  ...Object.fromEntries(hookNames.map((name, n) => [name, `whsec_c2VjcmV0LXN1YnNjcmliZXI${n}`])),
  KITCHEN_SLACK_URL: 'https://hooks.slack.com/services/T0/B0/kitchen',
  BOARD_BOT_TOKEN: 'xoxb-board',
};

describe('meal-notifier put-secrets', () => {
  let dir: string;
  let configPath: string;
  const secretsFile = async (content: unknown) => {
    const path = join(dir, 'secrets.json');
    await writeFile(path, JSON.stringify(content));
    return path;
  };
  const run = (file: string, ...extra: string[]) =>
    runCliInProcess(['put-secrets', '--config', configPath, '--stack', 'Prod', '--file', file, ...extra]);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'put-secrets-'));
    const config = exampleConfig();
    const [north] = config.organizations;
    config.organizations = names.slice(0, 3).map((name, n) => ({
      ...(north as NonNullable<typeof north>),
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      name: `School ${n}`,
      token: { env: name },
    }));
    config.subscribers = [
      ...hookNames.map((name, n) => ({
        id: `hooks-${n}`,
        type: 'webhook' as const,
        url: `https://hooks.example.test/${n}`,
        secret: { env: name },
      })),
      { id: 'kitchen', type: 'slack' as const, webhookUrl: { env: 'KITCHEN_SLACK_URL' } },
      { id: 'board', type: 'slack' as const, botToken: { env: 'BOARD_BOT_TOKEN' }, channel: 'C0000001' },
    ];
    delete config.smtp;
    configPath = join(dir, 'notifier.json');
    await writeFile(configPath, JSON.stringify(config));
    vi.stubEnv('AWS_REGION', 'eu-west-1');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
  });
  afterEach(() => secretsManager.reset());
  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts every token and every subscriber secret in the shard its function reads it from, printing no value', async () => {
    secretsManager.on(PutSecretValueCommand).resolves({});
    const tokenValues = Object.fromEntries(names.slice(0, 3).map((name) => [name, tokens[name]]));

    const result = await run(await secretsFile({ ...tokenValues, ...subscriberValues }));

    expect(result.stderr).not.toMatch(/whsec_|xoxb|hooks\.slack\.com|tok-/);
    expect(result.code).toBe(0);
    const calls = secretsManager.commandCalls(PutSecretValueCommand).map(({ args }) => args[0].input);
    expect(calls.map(({ SecretId }) => SecretId)).toEqual([
      'Prod/organization-tokens',
      'Prod/subscriber-secrets',
      'Prod/subscriber-secrets-2',
    ]);
    const layout = secretShardsOf('subscriber-secrets', Object.keys(subscriberValues));
    const put = new Map<string, string>();
    for (const { SecretId, SecretString } of calls.slice(1)) {
      for (const [name, value] of Object.entries(
        JSON.parse(String(SecretString)) as Record<string, string>,
      )) {
        expect(`Prod/${layout.secretOf(name)}`).toBe(SecretId);
        put.set(name, value);
      }
    }
    expect(Object.fromEntries(put)).toEqual(subscriberValues);
    expect(JSON.parse(String(calls[0]?.SecretString))).toEqual(tokenValues);
    expect(result.stderr).toContain(
      'the tokens of 3 organizations and 302 subscriber secrets put in 3 secrets',
    );
  });

  it('writes nothing when a subscriber secret is missing, in one line naming the file, the name and the subscriber', async () => {
    const { KITCHEN_SLACK_URL: _left, ...rest } = subscriberValues;
    const tokenValues = Object.fromEntries(names.slice(0, 3).map((name) => [name, tokens[name]]));
    const file = await secretsFile({ ...tokenValues, ...rest });

    const result = await run(file);

    expect(result.code).not.toBe(0);
    expect(secretsManager.commandCalls(PutSecretValueCommand)).toHaveLength(0);
    expect(result.stderr.trim().split('\n')).toEqual([
      `meal-notifier: ${file}: 1 problem`,
      '  KITCHEN_SLACK_URL: no value given (needed by $.subscribers[300].webhookUrl, subscriber kitchen); add "KITCHEN_SLACK_URL": "<its Slack incoming-webhook URL>"',
    ]);
  });

  it('refuses a name the config does not use, naming it', async () => {
    const tokenValues = Object.fromEntries(names.slice(0, 3).map((name) => [name, tokens[name]]));
    const file = await secretsFile({ ...tokenValues, ...subscriberValues, OLD_SLACK_URL: 'x' });

    const result = await run(file);

    expect(result.code).not.toBe(0);
    expect(secretsManager.commandCalls(PutSecretValueCommand)).toHaveLength(0);
    expect(result.stderr).toContain(
      "OLD_SLACK_URL: no organization's token nor subscriber's secret in the config is named so; remove it or fix the name",
    );
  });

  it('takes the values a file lacks from the per-subscriber secrets an upgraded stack kept, with --from-old-secrets', async () => {
    secretsManager.on(PutSecretValueCommand).resolves({});
    for (const [name, value] of Object.entries(subscriberValues)) {
      secretsManager
        .on(GetSecretValueCommand, { SecretId: `Prod/${name}` })
        .resolves({ SecretString: value });
    }
    secretsManager.on(GetSecretValueCommand, { SecretId: 'Prod/BOARD_BOT_TOKEN' }).rejects(
      Object.assign(new Error("Secrets Manager can't find the specified secret."), {
        name: 'ResourceNotFoundException',
      }),
    );
    const tokenValues = Object.fromEntries(names.slice(0, 3).map((name) => [name, tokens[name]]));

    // The bot token was never put in the old stack: the file gives it, and the rest comes from the old secrets.
    const result = await run(
      await secretsFile({ ...tokenValues, BOARD_BOT_TOKEN: 'xoxb-board' }),
      '--from-old-secrets',
    );

    expect(result.code).toBe(0);
    const asked = secretsManager
      .commandCalls(GetSecretValueCommand)
      .map(({ args }) => args[0].input.SecretId);
    expect(asked).toHaveLength(301);
    expect(asked).not.toContain('Prod/BOARD_BOT_TOKEN');
    const put = Object.assign(
      {},
      ...secretsManager
        .commandCalls(PutSecretValueCommand)
        .slice(1)
        .map(({ args }) => JSON.parse(String(args[0].input.SecretString)) as object),
    );
    expect(put).toEqual(subscriberValues);
    expect(result.stderr).toContain('Prod/KITCHEN_SLACK_URL: value taken');
    expect(result.stderr).not.toMatch(/whsec_|xoxb|hooks\.slack\.com/);
  });

  it('refuses, naming the name, a subscriber secret neither the file nor an old secret has', async () => {
    secretsManager.on(GetSecretValueCommand).rejects(
      Object.assign(new Error("Secrets Manager can't find the specified secret."), {
        name: 'ResourceNotFoundException',
      }),
    );
    const tokenValues = Object.fromEntries(names.slice(0, 3).map((name) => [name, tokens[name]]));
    const { HOOKS_5_SECRET: _left, ...rest } = subscriberValues;

    const result = await run(await secretsFile({ ...tokenValues, ...rest }), '--from-old-secrets');

    expect(result.code).not.toBe(0);
    expect(secretsManager.commandCalls(PutSecretValueCommand)).toHaveLength(0);
    expect(result.stderr).toContain('Prod/HOOKS_5_SECRET: has no value, not taken');
    expect(result.stderr).toContain(
      'HOOKS_5_SECRET: no value given (needed by $.subscribers[5].secret, subscriber hooks-5)',
    );
  });
});
