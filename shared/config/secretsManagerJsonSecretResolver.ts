// Resolves secret references from Secrets Manager secrets holding a JSON object, each reference's `env`
// name a key: on AWS, every organization's API token and every subscriber's secret lives in one of a few
// shards (shared/contracts/secretShards.ts), since a secret costs $0.40 a month and a secret per
// organization or subscriber would cost that for each, while one secret alone holds only 64 KB.
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretNotSetError } from './errors.js';
import type { SecretRef } from './secretRef.js';
import type { SecretResolver } from './secretResolver.js';
import { getSecretValue } from './secretsManagerSecretResolver.js';

export interface SecretsManagerJsonSecretResolverOptions {
  /**
   * The full name of the secret holding the reference, e.g. `MealOrderNotifier/organization-tokens`: one
   * name for every reference, or each reference's shard.
   */
  secretName: string | ((ref: SecretRef) => string);
  /** The command a failure line gives to put the value. @default aws secretsmanager put-secret-value … */
  fix?: string;
  /** Build it once per container and share it. @default a client from the Lambda environment */
  client?: SecretsManagerClient;
  /** How long the value is reused before Secrets Manager is asked again. @default 300 */
  maxAgeSeconds?: number;
}

export class SecretsManagerJsonSecretResolver implements SecretResolver {
  readonly #provider: SecretsProvider;
  readonly #secretName: (ref: SecretRef) => string;
  readonly #maxAge: number;
  readonly #fix: { fix: string } | Record<string, never>;

  constructor(options: SecretsManagerJsonSecretResolverOptions) {
    this.#provider = new SecretsProvider(options.client ? { awsSdkV3Client: options.client } : {});
    const { secretName } = options;
    this.#secretName = typeof secretName === 'string' ? () => secretName : secretName;
    this.#maxAge = options.maxAgeSeconds ?? 300;
    this.#fix = options.fix === undefined ? {} : { fix: options.fix };
  }

  /**
   * @throws SecretNotSetError when the secret has no value, holds no JSON object, or has no non-empty string
   *   under the reference's name; SecretLookupError when Secrets Manager refuses or fails
   */
  async resolve(ref: SecretRef, path?: string): Promise<string> {
    const name = this.#secretName(ref);
    const notSet = { key: ref.env, ...this.#fix };
    // Read as text and parsed here: a JSON parser's error quotes the text, which holds every token.
    const text = await getSecretValue(this.#provider, name, this.#maxAge, path, ref.env, this.#fix.fix);
    if (typeof text !== 'string' || text === '') throw new SecretNotSetError(name, path, notSet);
    const values = parseObject(text);
    if (values === undefined) throw new SecretNotSetError(name, path, { ...notSet, notAnObject: true });
    const value = values[ref.env];
    if (typeof value !== 'string' || value === '') throw new SecretNotSetError(name, path, notSet);
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
