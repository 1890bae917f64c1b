// Resolves secret references from one Secrets Manager secret holding a JSON object, each reference's `env`
// name a key: on AWS, every organization's API token lives in the one secret ORGANIZATION_TOKENS_SECRET
// (shared/contracts/), since a secret costs $0.40 a month and a token per organization would cost that per
// organization.
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretNotSetError } from './errors.js';
import type { SecretRef } from './secretRef.js';
import type { SecretResolver } from './secretResolver.js';
import { getSecretValue } from './secretsManagerSecretResolver.js';

export interface SecretsManagerJsonSecretResolverOptions {
  /** The secret's full name, e.g. `meal-order-notifier/organization-tokens`. */
  secretName: string;
  /** Build it once per container and share it. @default a client from the Lambda environment */
  client?: SecretsManagerClient;
  /** How long the value is reused before Secrets Manager is asked again. @default 300 */
  maxAgeSeconds?: number;
}

export class SecretsManagerJsonSecretResolver implements SecretResolver {
  readonly #provider: SecretsProvider;
  readonly #secretName: string;
  readonly #maxAge: number;

  constructor(options: SecretsManagerJsonSecretResolverOptions) {
    this.#provider = new SecretsProvider(options.client ? { awsSdkV3Client: options.client } : {});
    this.#secretName = options.secretName;
    this.#maxAge = options.maxAgeSeconds ?? 300;
  }

  /**
   * @throws SecretNotSetError when the secret has no value, holds no JSON object, or has no non-empty string
   *   under the reference's name; SecretLookupError when Secrets Manager refuses or fails
   */
  async resolve(ref: SecretRef, path?: string): Promise<string> {
    const name = this.#secretName;
    // Read as text and parsed here: a JSON parser's error quotes the text, which holds every token.
    const text = await getSecretValue(this.#provider, name, this.#maxAge, path, ref.env);
    if (typeof text !== 'string' || text === '') throw new SecretNotSetError(name, path, { key: ref.env });
    const values = parseObject(text);
    if (values === undefined) throw new SecretNotSetError(name, path, { key: ref.env, notAnObject: true });
    const value = values[ref.env];
    if (typeof value !== 'string' || value === '') throw new SecretNotSetError(name, path, { key: ref.env });
    return value;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}
