// `meal-notifier put-tokens`: one command puts 450 organizations' tokens into the stack's three shards
// (Secrets Manager mocked), each shard whole and holding exactly the tokens the poller reads from it; a file
// short of a token writes nothing and names the organization; a shard the stack lacks names the secret.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tokenShardsOf } from '../../../shared/contracts/organizationTokensSecret.js';
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
