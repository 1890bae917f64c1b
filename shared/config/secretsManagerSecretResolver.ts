// Resolves secret references from AWS Secrets Manager: the `env` name of a reference is the secret's name
// under a prefix, so one config file serves the local runner (environment) and AWS (Secrets Manager). The
// read itself, and what its failures mean, is getSecretValue, which the JSON secret's resolver uses too.
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretLookupError, SecretNotSetError } from './errors.js';
import type { SecretRef } from './secretRef.js';
import type { SecretResolver } from './secretResolver.js';

export interface SecretsManagerSecretResolverOptions {
  /** Prepended to each reference's name, e.g. `meal-order-notifier/` → `meal-order-notifier/NORTH_TOKEN`. */
  prefix: string;
  /** Build it once per container and share it. @default a client from the Lambda environment */
  client?: SecretsManagerClient;
  /** How long a value is reused before Secrets Manager is asked again. @default 300 */
  maxAgeSeconds?: number;
}

export class SecretsManagerSecretResolver implements SecretResolver {
  readonly #provider: SecretsProvider;
  readonly #prefix: string;
  readonly #maxAge: number;

  constructor(options: SecretsManagerSecretResolverOptions) {
    this.#provider = new SecretsProvider(options.client ? { awsSdkV3Client: options.client } : {});
    this.#prefix = options.prefix;
    this.#maxAge = options.maxAgeSeconds ?? 300;
  }

  async resolve(ref: SecretRef, path?: string): Promise<string> {
    const name = `${this.#prefix}${ref.env}`;
    const value = await getSecretValue(this.#provider, name, this.#maxAge, path);
    if (typeof value !== 'string' || value === '') throw new SecretNotSetError(name, path);
    return value;
  }
}

/**
 * The secret's value as Powertools' provider hands it over (cached for `maxAge` seconds), for both Secrets
 * Manager resolvers. A secret not put yet is a SecretNotSetError (`key` names the value a JSON secret
 * was to hold); a secret that could not be read (not allowed, throttled, the network) a SecretLookupError.
 */
export async function getSecretValue(
  provider: SecretsProvider,
  name: string,
  maxAge: number,
  path: string | undefined,
  key?: string,
  fix?: string,
): Promise<unknown> {
  try {
    return await provider.get(name, { maxAge });
  } catch (error) {
    // Powertools wraps the SDK's error; its name tells "not put yet" from "not allowed" or "throttled".
    const cause = (error as { cause?: { name?: string } }).cause ?? (error as { name?: string });
    if (cause.name === 'ResourceNotFoundException') {
      throw new SecretNotSetError(name, path, {
        cause: error,
        ...(key === undefined ? {} : { key }),
        ...(fix === undefined ? {} : { fix }),
      });
    }
    throw new SecretLookupError(name, cause.name ?? 'unknown error', error);
  }
}
