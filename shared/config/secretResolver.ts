// Turns secret references into values at run time. The resolver is a port: environment variables here,
// Secrets Manager on AWS; messages name the variable and the config path, never a value.
import type { Config } from './configSchema.js';
import { MissingSecretError } from './errors.js';
import { type SecretRef, secretRefKey } from './secretRef.js';
import { secretReferences } from './secretReferences.js';

export interface SecretResolver {
  /** `path`, the reference's place in the config, only serves error messages. */
  resolve(ref: SecretRef, path?: string): Promise<string>;
}

export class EnvSecretResolver implements SecretResolver {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async resolve(ref: SecretRef, path?: string): Promise<string> {
    const value = this.env[ref.env];
    if (value === undefined || value === '') throw new MissingSecretError(ref.env, path);
    return value;
  }
}

export interface MissingSecret {
  /** JSON path of the reference, e.g. `$.subscribers[0].secret`. */
  path: string;
  variable: string;
}

/** Every reference whose environment variable is unset or empty, for `check-config` to list at once. */
export function findMissingSecrets(config: Config, env: NodeJS.ProcessEnv = process.env): MissingSecret[] {
  return secretReferences(config)
    .filter(({ ref }) => isMissing(env[ref.env]))
    .map(({ path, ref }) => ({ path, variable: ref.env }));
}

/** The values of a config's secrets, looked up by reference. */
export class ResolvedSecrets {
  constructor(private readonly values: ReadonlyMap<string, string>) {}

  get(ref: SecretRef): string {
    const value = this.values.get(secretRefKey(ref));
    // Only a reference from another config can miss: a bug, not a user mistake.
    if (value === undefined) throw new Error(`secret reference ${secretRefKey(ref)} was not resolved`);
    return value;
  }
}

/**
 * Resolves every secret of the config before any work starts, each distinct reference once. Fails with
 * the first failing reference in document order.
 */
export async function resolveSecrets(config: Config, resolver: SecretResolver): Promise<ResolvedSecrets> {
  const firstUse = new Map<string, { path: string; ref: SecretRef }>();
  for (const reference of secretReferences(config)) {
    const key = secretRefKey(reference.ref);
    if (!firstUse.has(key)) firstUse.set(key, reference);
  }
  const entries = [...firstUse];
  const outcomes = await Promise.allSettled(entries.map(([, { path, ref }]) => resolver.resolve(ref, path)));
  const values = new Map<string, string>();
  outcomes.forEach((outcome, index) => {
    const key = entries[index]?.[0];
    if (outcome.status === 'rejected') throw outcome.reason;
    if (key !== undefined) values.set(key, outcome.value);
  });
  return new ResolvedSecrets(values);
}

function isMissing(value: string | undefined): boolean {
  return value === undefined || value === '';
}
