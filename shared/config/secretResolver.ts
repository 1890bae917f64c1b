// Turns secret references into values at run time. The resolver is a port: environment variables here,
// Secrets Manager on AWS; messages name the variable and the config path, never a value.
import { jsonPath } from './configProblems.js';
import type { Config } from './configSchema.js';
import { type ConfigProblem, MissingSecretError } from './errors.js';
import { type SecretRef, secretRefKey } from './secretRef.js';
import { type SecretReference, secretReferences } from './secretReferences.js';

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

/**
 * Every reference whose environment variable is unset or empty, for `check-config` to list at once. A
 * webhook's signing secret is not missing while another of its list is set: that is a rotation under
 * way, and delivery signs with the secrets that are set (see findUnsetRotationSecrets).
 */
export function findMissingSecrets(config: Config, env: NodeJS.ProcessEnv = process.env): MissingSecret[] {
  const rotating = new Set(findUnsetRotationSecrets(config, env).map(({ path }) => path));
  return secretReferences(config)
    .filter(({ path, ref }) => isMissing(env[ref.env]) && !rotating.has(path))
    .map(({ path, ref }) => ({ path, variable: ref.env }));
}

/** An unset secret as a config problem, worded as every command words it. */
export function missingSecretProblem({ path, variable }: MissingSecret): ConfigProblem {
  return { path, message: `environment variable ${variable} is not set or is empty` };
}

/** Webhook signing secrets that are unset while another secret of the same subscriber is set. */
export function findUnsetRotationSecrets(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
): Array<MissingSecret & { subscriberId: string }> {
  const unset: Array<MissingSecret & { subscriberId: string }> = [];
  config.subscribers.forEach((subscriber, index) => {
    if (subscriber.type !== 'webhook' || subscriber.secret.length < 2) return;
    if (subscriber.secret.every((ref) => isMissing(env[ref.env]))) return;
    subscriber.secret.forEach((ref, position) => {
      if (!isMissing(env[ref.env])) return;
      const path = jsonPath(['subscribers', index, 'secret', position]);
      unset.push({ path, variable: ref.env, subscriberId: subscriber.id });
    });
  });
  return unset;
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
export async function resolveSecrets(
  config: Config,
  resolver: SecretResolver,
  references: readonly SecretReference[] = secretReferences(config),
): Promise<ResolvedSecrets> {
  const firstUse = new Map<string, { path: string; ref: SecretRef }>();
  for (const reference of references) {
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
