// The Secrets Manager secrets that hold the deployment's credentials on AWS: JSON objects, each value under
// its reference's `env` name, in two families sharded so that no secret outgrows Secrets Manager's 64 KB and
// none is paid for per organization or per subscriber. `organization-tokens` holds the organizations' API
// tokens, which only the poller reads; `subscriber-secrets` the Slack incoming-webhook URLs, Slack app bot
// tokens and webhook signing secrets, which only the delivery functions read. The stack creates the shards
// and grants each family to its readers (infra/notifierSecrets.ts), the functions read a value from its
// shard through SecretsManagerJsonSecretResolver, and `meal-notifier put-secrets` writes them all from one
// file. Each family's names, the shard of a name and the shards' names are decided here alone, so they agree.
import { createHash } from 'node:crypto';
import type { SubscriberConfig } from '../config/configSchema.js';
import type { SecretRef } from '../config/secretRef.js';
import { subscriberSecrets } from '../config/secretReferences.js';

/** The families of secrets, each read by its own functions. */
export const SECRET_FAMILIES = ['organization-tokens', 'subscriber-secrets'] as const;
export type SecretFamily = (typeof SECRET_FAMILIES)[number];

/**
 * The first tokens shard's name after the deployment's secrets prefix (the only one up to NAMES_PER_SHARD
 * tokens, and the one secret of versions before the shards). No reference's own secret can take a shard's
 * name: a reference names an environment variable, which has no "-".
 */
export const ORGANIZATION_TOKENS_SECRET: SecretFamily = 'organization-tokens';
/** The first subscriber secrets shard's name after the prefix. */
export const SUBSCRIBER_SECRETS_SECRET: SecretFamily = 'subscriber-secrets';

/**
 * Names per shard, on average: a secret holds 65,536 bytes, so a shard's entries may average some 300 bytes
 * (`"NAME":"value",`, a Slack webhook URL being about 80 characters) with room for the hash's uneven spread
 * (a few dozen over the mean at 1,000 names). A secret costs $0.40 a month whatever it holds, and every warm
 * function reads every shard it uses every 5 minutes, so fewer, fuller shards are cheaper than a secret per
 * name (docs/aws.md, "Cost").
 */
export const NAMES_PER_SHARD = 200;

/** Secrets Manager's largest secret value, in bytes. */
export const SECRET_VALUE_MAX_BYTES = 65_536;

/** How many shards a family's distinct names need: one up to NAMES_PER_SHARD, then more. */
export function shardCount(names: Iterable<string>): number {
  return Math.max(1, Math.ceil(new Set(names).size / NAMES_PER_SHARD));
}

/** A family's shard secret name after the prefix: `organization-tokens`, then `organization-tokens-2`… */
export function shardSecret(family: SecretFamily, shard: number): string {
  return shard === 0 ? family : `${family}-${shard + 1}`;
}

/**
 * The shard (0-based) holding the value named `name` among `count`: Lamping and Veach's jump consistent
 * hash of the name's SHA-256, so a family that needs one shard more moves only that shard's share of the
 * names (1 in n), not most of them. `put-secrets` writes every shard again anyway.
 */
export function shardOf(name: string, count: number): number {
  let key = createHash('sha256').update(name).digest().readBigUInt64BE(0);
  let bucket = -1;
  let next = 0;
  while (next < count) {
    bucket = next;
    key = (key * 2862933555777941757n + 1n) & 0xffff_ffff_ffff_ffffn;
    next = Math.floor(((bucket + 1) * 2 ** 31) / (Number(key >> 33n) + 1));
  }
  return Math.max(bucket, 0);
}

/** Where each value of a family lives: the shards' names after the prefix, and each name's shard. */
export interface SecretShards {
  readonly family: SecretFamily;
  readonly count: number;
  /** The shard (0-based) holding `name`. */
  shardOf(name: string): number;
  /** The secret name (after the prefix) of the shard holding `name`. */
  secretOf(name: string): string;
}

/** The shards of a family whose shard count is known (a delivery function gets it from the stack). */
export function secretShards(family: SecretFamily, count: number): SecretShards {
  return {
    family,
    count,
    shardOf: (name) => shardOf(name, count),
    secretOf: (name) => shardSecret(family, shardOf(name, count)),
  };
}

/** The shards of a family's reference names, as the stack lays them out. */
export function secretShardsOf(family: SecretFamily, names: Iterable<string>): SecretShards {
  return secretShards(family, shardCount(names));
}

/** The part of a config whose references the shards hold. */
export interface ShardedConfig {
  readonly organizations: readonly { readonly name: string; readonly token: SecretRef }[];
  readonly subscribers: readonly SubscriberConfig[];
}

/**
 * The reference names a config puts in `family`, distinct, in config order: the organizations' tokens, or
 * the Slack and webhook subscribers' secrets (`smtp.url` is in neither: on AWS, SNS sends the e-mail).
 */
export function familyNamesOf(config: ShardedConfig, family: SecretFamily): string[] {
  const refs =
    family === 'organization-tokens'
      ? config.organizations.map(({ token }) => token)
      : config.subscribers.flatMap((subscriber) => subscriberSecrets(subscriber));
  return [...new Set(refs.map(({ env }) => env))];
}

/** The tokens' shards of a config's token reference names (`organizations[].token.env`). */
export function tokenShardsOf(tokenNames: Iterable<string>): SecretShards {
  return secretShardsOf('organization-tokens', tokenNames);
}

/** A tokens shard's secret name after the prefix. */
export function tokenShardSecret(shard: number): string {
  return shardSecret('organization-tokens', shard);
}

/** The command that puts every secret of every family, as the failure lines and the docs give it. */
export function putSecretsCommand(secretsPrefix: string): string {
  return `meal-notifier put-secrets --config <the config the stack was deployed with> --secrets-prefix ${secretsPrefix} --file <JSON file holding every token and subscriber secret by name, {"NAME": "...", ...}>`;
}
