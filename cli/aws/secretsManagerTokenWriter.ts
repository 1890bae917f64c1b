// Writes a tokens shard's value to Secrets Manager for `meal-notifier put-tokens`, with the SDK's usual
// credentials and region; a failure names the secret and what to check, never the value.
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { TokenSecretWriter } from '../../shared/operations/putOrganizationTokens.js';
import { stackAccessError } from './stackAccessError.js';

export class SecretsManagerTokenWriter implements TokenSecretWriter {
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

  close(): void {
    this.#client.destroy();
  }
}
