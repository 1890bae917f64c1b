// Secret references resolved from Secrets Manager (mocked): the name is prefix + reference, values are
// cached, and each failure says which secret and why without any value.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretLookupError, SecretNotSetError } from '../../../shared/config/errors.js';
import { SecretsManagerSecretResolver } from '../../../shared/config/secretsManagerSecretResolver.js';

const secretsManager = mockClient(SecretsManagerClient);

afterEach(() => {
  secretsManager.reset();
});

function resolver(): SecretsManagerSecretResolver {
  return new SecretsManagerSecretResolver({
    prefix: 'notifier/',
    client: new SecretsManagerClient({ region: 'us-east-1' }),
  });
}

describe('SecretsManagerSecretResolver', () => {
  it('reads the secret named by the prefix and the reference, once per max age', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'tok-123' });
    const secrets = resolver();
    expect(await secrets.resolve({ env: 'NORTH_TOKEN' })).toBe('tok-123');
    expect(await secrets.resolve({ env: 'NORTH_TOKEN' })).toBe('tok-123');
    expect(secretsManager).toHaveReceivedCommandTimes(GetSecretValueCommand, 1);
    expect(secretsManager).toHaveReceivedCommandWith(GetSecretValueCommand, {
      SecretId: 'notifier/NORTH_TOKEN',
    });
  });

  it('says the secret has no value yet when Secrets Manager does not find it', async () => {
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(Object.assign(new Error('not found'), { name: 'ResourceNotFoundException' }));
    const failure = resolver().resolve({ env: 'SLACK_URL' }, '$.subscribers[1].webhookUrl');
    await expect(failure).rejects.toBeInstanceOf(SecretNotSetError);
    await expect(failure).rejects.toThrow(
      'secret notifier/SLACK_URL has no value in Secrets Manager (needed by $.subscribers[1].webhookUrl)',
    );
    // The one command that fixes it, with the secret's full name.
    await expect(failure).rejects.toThrow(
      'aws secretsmanager put-secret-value --secret-id notifier/SLACK_URL --secret-string file://',
    );
  });

  it('treats an empty secret string as not set', async () => {
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: '' });
    await expect(resolver().resolve({ env: 'HOOK_SECRET' })).rejects.toBeInstanceOf(SecretNotSetError);
  });

  it('names the cause when access is denied', async () => {
    secretsManager
      .on(GetSecretValueCommand)
      .rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    const failure = resolver().resolve({ env: 'NORTH_TOKEN' });
    await expect(failure).rejects.toBeInstanceOf(SecretLookupError);
    await expect(failure).rejects.toThrow(
      'could not read secret notifier/NORTH_TOKEN from Secrets Manager: AccessDeniedException',
    );
  });
});
