// `meal-notifier put-tokens`: puts every organization's API token into its shard of the stack's tokens
// secrets (shared/contracts/organizationTokensSecret.ts) from one JSON file of tokens by reference name.
// Every shard is checked before any is written: a token missing, a name no organization uses, or a shard
// over Secrets Manager's 64 KB refuses the whole file, so a half-put set never replaces a working one.
import type { OrganizationConfig } from '../config/configSchema.js';
import {
  SECRET_VALUE_MAX_BYTES,
  tokenShardSecret,
  tokenShardsOf,
} from '../contracts/organizationTokensSecret.js';
import { FixByHandError } from '../errors/fixByHandError.js';
import { counted } from '../text/counted.js';

/** The tokens file does not give every organization its token, or gives what no shard can hold. */
export class TokensFileError extends FixByHandError {
  readonly problems: readonly string[];

  constructor(file: string, problems: readonly string[]) {
    super([`${file}: ${counted(problems.length, 'problem')}`, ...problems.map((p) => `  ${p}`)].join('\n'));
    this.problems = problems;
  }
}

/** One secret to write: its full name and its value (a JSON object of tokens by name). */
export interface TokenShardValue {
  secretName: string;
  secretString: string;
  tokens: number;
}

/** The value of every shard, in shard order; never a token in a problem line. */
export function planTokenShards(
  organizations: readonly Pick<OrganizationConfig, 'name' | 'token'>[],
  tokens: unknown,
  secretsPrefix: string,
  file: string,
): TokenShardValue[] {
  if (typeof tokens !== 'object' || tokens === null || Array.isArray(tokens)) {
    throw new TokensFileError(file, ['holds no JSON object of tokens by name, {"NAME": "...", ...}']);
  }
  const given = tokens as Record<string, unknown>;
  const names = organizations.map(({ token }) => token.env);
  const shards = tokenShardsOf(names);
  const problems: string[] = [];
  const values = Array.from({ length: shards.count }, () => ({}) as Record<string, string>);
  organizations.forEach((organization, index) => {
    const name = organization.token.env;
    const value = given[name];
    if (typeof value !== 'string' || value === '') {
      problems.push(
        `${name}: no token given (needed by $.organizations[${index}].token, ${organization.name}); add "${name}": "<its token>"`,
      );
      return;
    }
    const shard = values[shards.shardOf(name)];
    if (shard !== undefined) shard[name] = value;
  });
  for (const name of Object.keys(given)) {
    if (!names.includes(name)) {
      problems.push(`${name}: no organization's token in the config is named so; remove it or fix the name`);
    }
  }
  const planned = values.map((shard, index) => {
    const secretString = JSON.stringify(shard);
    return {
      secretName: `${secretsPrefix}${tokenShardSecret(index)}`,
      secretString,
      tokens: Object.keys(shard).length,
    };
  });
  for (const shard of planned) {
    const bytes = Buffer.byteLength(shard.secretString);
    if (bytes > SECRET_VALUE_MAX_BYTES) {
      problems.push(
        `${shard.secretName} would hold ${Math.ceil(bytes / 1024)} KB, over Secrets Manager's 64 KB: shorten the tokens' names`,
      );
    }
  }
  if (problems.length > 0) throw new TokensFileError(file, problems);
  return planned;
}

export interface TokenSecretWriter {
  /** Puts `secretString` as the secret's current value. */
  put(secretName: string, secretString: string): Promise<void>;
}

/** Writes each shard, in order; the first failure stops the rest (the shards written stand, each whole). */
export async function putOrganizationTokens(
  shards: readonly TokenShardValue[],
  writer: TokenSecretWriter,
  written: (shard: TokenShardValue) => void,
): Promise<void> {
  for (const shard of shards) {
    await writer.put(shard.secretName, shard.secretString);
    written(shard);
  }
}
