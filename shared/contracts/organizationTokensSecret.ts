// The Secrets Manager secrets that hold every organization's API token on AWS: JSON objects, each token
// under its reference's `env` name, sharded so that no secret outgrows Secrets Manager's 64 KB. The stack
// creates the shards and grants them to the poller, which reads a token from its shard through
// SecretsManagerJsonSecretResolver; `meal-notifier put-tokens` writes them all from one file. The shard of a
// token and the shards' names are decided here alone, so the three agree.
import { createHash } from 'node:crypto';

/**
 * The first shard's name after the deployment's secrets prefix (the only one up to TOKENS_PER_SHARD tokens,
 * and the one secret of versions before the shards). No reference's own secret can take a shard's name: a
 * reference names an environment variable, which has no "-".
 */
export const ORGANIZATION_TOKENS_SECRET = 'organization-tokens';

/**
 * Tokens per shard, on average: a secret holds 65,536 bytes, so a shard's entries may average some 300 bytes
 * (`"NAME":"token",`) with room for the hash's uneven spread (a few dozen over the mean at 1,000 tokens).
 * A secret costs $0.40 a month whatever it holds, and every warm poller reads every shard every 5 minutes,
 * so fewer, fuller shards are cheaper than a secret per token (docs/aws.md, "Cost").
 */
export const TOKENS_PER_SHARD = 200;

/** Secrets Manager's largest secret value, in bytes. */
export const SECRET_VALUE_MAX_BYTES = 65_536;

/** How many shards a config's distinct token reference names need: one up to TOKENS_PER_SHARD, then more. */
export function tokenShardCount(tokenNames: Iterable<string>): number {
  return Math.max(1, Math.ceil(new Set(tokenNames).size / TOKENS_PER_SHARD));
}

/** The shard's secret name after the prefix: `organization-tokens`, then `organization-tokens-2`, `-3`… */
export function tokenShardSecret(shard: number): string {
  return shard === 0 ? ORGANIZATION_TOKENS_SECRET : `${ORGANIZATION_TOKENS_SECRET}-${shard + 1}`;
}

/**
 * The shard (0-based) holding the token named `tokenName` among `shardCount`: Lamping and Veach's jump
 * consistent hash of the name's SHA-256, so a config that needs one shard more moves only that shard's
 * share of the tokens (1 in n), not most of them. `put-tokens` writes every shard again anyway.
 */
export function tokenShardOf(tokenName: string, shardCount: number): number {
  let key = createHash('sha256').update(tokenName).digest().readBigUInt64BE(0);
  let bucket = -1;
  let next = 0;
  while (next < shardCount) {
    bucket = next;
    key = (key * 2862933555777941757n + 1n) & 0xffff_ffff_ffff_ffffn;
    next = Math.floor(((bucket + 1) * 2 ** 31) / (Number(key >> 33n) + 1));
  }
  return Math.max(bucket, 0);
}

/** Where each token of a config lives: the shards' names after the prefix, and each name's shard. */
export interface TokenShards {
  readonly count: number;
  /** The shard (0-based) holding `tokenName`. */
  shardOf(tokenName: string): number;
  /** The secret name (after the prefix) of the shard holding `tokenName`. */
  secretOf(tokenName: string): string;
}

/** The shards of the config's token reference names (`organizations[].token.env`). */
export function tokenShardsOf(tokenNames: Iterable<string>): TokenShards {
  const count = tokenShardCount(tokenNames);
  return {
    count,
    shardOf: (tokenName) => tokenShardOf(tokenName, count),
    secretOf: (tokenName) => tokenShardSecret(tokenShardOf(tokenName, count)),
  };
}

/** The command that puts every token, as the failure lines and the docs give it. */
export function putTokensCommand(secretsPrefix: string): string {
  return `meal-notifier put-tokens --config <the config the stack was deployed with> --secrets-prefix ${secretsPrefix} --file <JSON file holding every organization's token by name, {"NAME": "...", ...}>`;
}
