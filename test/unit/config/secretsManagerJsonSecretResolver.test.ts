// Secret references resolved as the keys of one Secrets Manager secret holding a JSON object (mocked), as
// the organizations' tokens are on AWS: one read serves every key until the max age, and each way the
// value can be missing says which secret and key, and the command that sets it, without any value.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretLookupError, SecretNotSetError } from '../../../shared/config/errors.js';
import { SecretsManagerJsonSecretResolver } from '../../../shared/config/secretsManagerJsonSecretResolver.js';
import {
  ORGANIZATION_TOKENS_SECRET,
  putSecretsCommand,
  tokenShardsOf,
} from '../../../shared/contracts/secretShards.js';

const secretsManager = mockClient(SecretsManagerClient);
const NAME = `notifier/${ORGANIZATION_TOKENS_SECRET}`;

afterEach(() => {
  secretsManager.reset();
});

function resolver(): SecretsManagerJsonSecretResolver {
  return new SecretsManagerJsonSecretResolver({
    secretName: NAME,
    client: new SecretsManagerClient({ region: 'us-east-1' }),
  });
}

describe('SecretsManagerJsonSecretResolver', () => {
  it('reads each reference as a key of the one secret, which is read once per max age for every key', async () => {
    secretsManager
      .on(GetSecretValueCommand)
      .resolves({ SecretString: JSON.stringify({ NORTH_TOKEN: 'tok-north', SOUTH_TOKEN: 'tok-south' }) });
    const tokens = resolver();
    expect(await tokens.resolve({ env: 'NORTH_TOKEN' })).toBe('tok-north');
    expect(await tokens.resolve({ env: 'SOUTH_TOKEN' })).toBe('tok-south');
    expect(secretsManager).toHaveReceivedCommandTimes(GetSecretValueCommand, 1);
    expect(secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, {
      SecretId: 'notifier/organization-tokens',
    });
  });

  it('says the secret has no value for the key when Secrets Manager has none yet, with the command that sets it', async () => {
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(Object.assign(new Error('not found'), { name: 'ResourceNotFoundException' }));
    const failure = resolver().resolve({ env: 'NORTH_TOKEN' }, '$.organizations[0].token');
    await expect(failure).rejects.toBeInstanceOf(SecretNotSetError);
    await expect(failure).rejects.toThrow(
      'secret notifier/organization-tokens has no value for NORTH_TOKEN in Secrets Manager (needed by $.organizations[0].token); ' +
        'set it with: aws secretsmanager put-secret-value --secret-id notifier/organization-tokens --secret-string file://<JSON file holding every value by name, {"NORTH_TOKEN": "...", ...}>',
    );
  });

  it('says which key is missing, or empty, when the others are there', async () => {
    secretsManager
      .on(GetSecretValueCommand)
      .resolves({ SecretString: JSON.stringify({ NORTH_TOKEN: 'tok-north', EAST_TOKEN: '' }) });
    const tokens = resolver();
    await expect(tokens.resolve({ env: 'SOUTH_TOKEN' })).rejects.toThrow('has no value for SOUTH_TOKEN');
    await expect(tokens.resolve({ env: 'EAST_TOKEN' })).rejects.toThrow('has no value for EAST_TOKEN');
  });

  it('refuses a value that is not a JSON object without quoting it: a bare token put there by mistake stays out of the log', async () => {
    for (const value of ['tok-put-bare', '["tok-in-a-list"]', '"tok-as-json-string"']) {
      secretsManager.reset();
      secretsManager.on(GetSecretValueCommand).resolves({ SecretString: value });
      const failure = resolver().resolve({ env: 'NORTH_TOKEN' });
      await expect(failure).rejects.toBeInstanceOf(SecretNotSetError);
      const error = (await failure.catch((thrown: unknown) => thrown)) as SecretNotSetError;
      expect(error.message).toContain(
        'secret notifier/organization-tokens holds no JSON object of values by name',
      );
      expect(`${error.message} ${String(error.cause)}`).not.toContain('tok-');
    }
  });

  it('names the cause when access is denied', async () => {
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    const failure = resolver().resolve({ env: 'NORTH_TOKEN' });
    await expect(failure).rejects.toBeInstanceOf(SecretLookupError);
    await expect(failure).rejects.toThrow(
      'could not read secret notifier/organization-tokens from Secrets Manager: AccessDeniedException',
    );
  });

  it('reads each token from its shard, and names that shard and the put-secrets command when its key is missing', async () => {
    const names = Array.from({ length: 450 }, (_, n) => `SCHOOL_${n}_TOKEN`);
    const shards = tokenShardsOf(names);
    expect(shards.count).toBe(3);
    const secretOf = (ref: { env: string }) => `notifier/${shards.secretOf(ref.env)}`;
    for (let shard = 0; shard < shards.count; shard += 1) {
      const held = names.filter((name) => shards.shardOf(name) === shard);
      // Each shard holds its share, roughly even, and no secret would outgrow 64 KB at 200 bytes a token.
      expect(held.length).toBeGreaterThan(100);
      expect(held.length).toBeLessThan(250);
      secretsManager.on(GetSecretValueCommand, { SecretId: secretOf({ env: held[0] as string }) }).resolves({
        SecretString: JSON.stringify(Object.fromEntries(held.slice(1).map((n) => [n, `tok-${n}`]))),
      });
    }
    const tokens = new SecretsManagerJsonSecretResolver({
      secretName: secretOf,
      fix: putSecretsCommand('notifier/'),
      client: new SecretsManagerClient({ region: 'us-east-1' }),
    });
    const present = names.filter((name) => shards.shardOf(name) === 2)[1] as string;
    expect(await tokens.resolve({ env: present })).toBe(`tok-${present}`);
    expect(secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, {
      SecretId: 'notifier/organization-tokens-3',
    });
    const missing = names.filter((name) => shards.shardOf(name) === 1)[0] as string;
    await expect(tokens.resolve({ env: missing }, '$.organizations[7].token')).rejects.toThrow(
      `secret notifier/organization-tokens-2 has no value for ${missing} in Secrets Manager (needed by $.organizations[7].token); ` +
        'set it with: meal-notifier put-secrets --config <the config the stack was deployed with> --secrets-prefix notifier/ --file',
    );
  });
});
