// Writes a shard's value to Secrets Manager for `meal-notifier put-secrets` and `put-tokens`, with the SDK's
// usual credentials and region, and reads the secret of one reference that a stack before the subscriber
// secrets' shards kept (`--from-old-secrets`); a failure names the secret and what to check, never a value.
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { SecretShardWriter } from '../../shared/operations/putSecrets.js';
import { stackAccessError } from './stackAccessError.js';

export class SecretsManagerShardWriter implements SecretShardWriter {
  readonly #client: SecretsManagerClient;

  constructor(region: string | undefined) {
    this.#client = new SecretsManagerClient(region === undefined ? {} : { region });
  }

  async put(secretName: string, secretString: string): Promise<void> {
    try {
      await this.#client.send(
        new PutSecretValueCommand({ SecretId: secretName, SecretString: secretString }),
      );
    } catch (error) {
      throw stackAccessError(`the secret ${secretName}`, error, 'AWS_ENDPOINT_URL_SECRETS_MANAGER');
    }
  }

  /** The secret's text; undefined when it does not exist or holds none (never put, or deleted). */
  async get(secretName: string): Promise<string | undefined> {
    try {
      const answer = await this.#client.send(new GetSecretValueCommand({ SecretId: secretName }));
      return answer.SecretString === '' ? undefined : answer.SecretString;
    } catch (error) {
      if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
      throw stackAccessError(`the secret ${secretName}`, error, 'AWS_ENDPOINT_URL_SECRETS_MANAGER');
    }
  }

  close(): void {
    this.#client.destroy();
  }
}
