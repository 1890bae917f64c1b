// `meal-notifier put-secrets` (and its tokens-only form, `put-tokens`): puts every value a config's
// references need into its shard of the stack's secrets (shared/contracts/secretShards.ts), from one JSON
// file of values by reference name. Every shard is checked before any is written: a value missing, a name
// the config does not use, or a shard over Secrets Manager's 64 KB refuses the whole file, so a half-put
// set never replaces a working one.
import { jsonPath } from '../config/configProblems.js';
import { slackSecretOf } from '../config/configSchema.js';
import { signingSecretPath } from '../config/secretReferences.js';
import {
  familyNamesOf,
  SECRET_VALUE_MAX_BYTES,
  type SecretFamily,
  type ShardedConfig,
  secretShardsOf,
  shardSecret,
} from '../contracts/secretShards.js';
import { FixByHandError } from '../errors/fixByHandError.js';
import { counted } from '../text/counted.js';

/** The secrets file does not give every reference its value, or gives what no shard can hold. */
export class SecretsFileError extends FixByHandError {
  readonly problems: readonly string[];

  constructor(file: string, problems: readonly string[]) {
    super([`${file}: ${counted(problems.length, 'problem')}`, ...problems.map((p) => `  ${p}`)].join('\n'));
    this.problems = problems;
  }
}

/** One secret to write: its full name and its value (a JSON object of values by name). */
export interface ShardValue {
  family: SecretFamily;
  secretName: string;
  secretString: string;
  /** How many values it holds. */
  values: number;
}

/** Where the config first needs a name, for the line that says it is missing. */
interface NameUse {
  family: SecretFamily;
  name: string;
  path: string;
  /** The organization's name, or `subscriber <id>`. */
  usedBy: string;
  /** What the value is, e.g. `its token`. */
  what: string;
}

function usesOf(config: ShardedConfig, families: readonly SecretFamily[]): NameUse[] {
  const uses: NameUse[] = [];
  if (families.includes('organization-tokens')) {
    config.organizations.forEach(({ name, token }, index) => {
      uses.push({
        family: 'organization-tokens',
        name: token.env,
        path: jsonPath(['organizations', index, 'token']),
        usedBy: name,
        what: 'its token',
      });
    });
  }
  if (families.includes('subscriber-secrets')) {
    config.subscribers.forEach((subscriber, index) => {
      const at = jsonPath(['subscribers', index]);
      const usedBy = `subscriber ${subscriber.id}`;
      if (subscriber.type === 'webhook') {
        subscriber.secret.forEach((ref, position) => {
          const path = signingSecretPath(at, subscriber.secret, position);
          uses.push({
            family: 'subscriber-secrets',
            name: ref.env,
            path,
            usedBy,
            what: 'its webhook signing secret, whsec_...',
          });
        });
      } else if (subscriber.type === 'slack') {
        const { field, ref } = slackSecretOf(subscriber);
        const what = field === 'botToken' ? 'its Slack bot token' : 'its Slack incoming-webhook URL';
        uses.push({ family: 'subscriber-secrets', name: ref.env, path: `${at}.${field}`, usedBy, what });
      }
    });
  }
  return uses;
}

/**
 * The value of every shard of `families`, family by family in shard order; a family the config has no
 * name in has no shard (the stack creates none). Never a value in a problem line.
 */
export function planSecretShards(
  config: ShardedConfig,
  families: readonly SecretFamily[],
  given: unknown,
  secretsPrefix: string,
  file: string,
): ShardValue[] {
  const tokensOnly = families.length === 1 && families[0] === 'organization-tokens';
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new SecretsFileError(file, [
      `holds no JSON object of ${tokensOnly ? 'tokens' : 'secrets'} by name, {"NAME": "...", ...}`,
    ]);
  }
  const values = given as Record<string, unknown>;
  const problems: string[] = [];
  const uses = usesOf(config, families);
  const reported = new Set<string>();
  for (const use of uses) {
    const value = values[use.name];
    if ((typeof value !== 'string' || value === '') && !reported.has(use.name)) {
      reported.add(use.name);
      const kind = use.family === 'organization-tokens' ? 'token' : 'value';
      problems.push(
        `${use.name}: no ${kind} given (needed by ${use.path}, ${use.usedBy}); add "${use.name}": "<${use.what}>"`,
      );
    }
  }
  const known = new Set(uses.map(({ name }) => name));
  for (const name of Object.keys(values)) {
    if (!known.has(name)) {
      const what = tokensOnly
        ? "no organization's token"
        : families.length === 1
          ? "no subscriber's secret"
          : "no organization's token nor subscriber's secret";
      problems.push(`${name}: ${what} in the config is named so; remove it or fix the name`);
    }
  }
  const planned = families.flatMap((family) => {
    const names = familyNamesOf(config, family);
    if (names.length === 0) return [];
    const shards = secretShardsOf(family, names);
    const objects = Array.from({ length: shards.count }, () => ({}) as Record<string, string>);
    for (const name of names) {
      const value = values[name];
      const shard = objects[shards.shardOf(name)];
      if (typeof value === 'string' && value !== '' && shard !== undefined) shard[name] = value;
    }
    return objects.map((object, index) => ({
      family,
      secretName: `${secretsPrefix}${shardSecret(family, index)}`,
      secretString: JSON.stringify(object),
      values: Object.keys(object).length,
    }));
  });
  for (const shard of planned) {
    const bytes = Buffer.byteLength(shard.secretString);
    if (bytes > SECRET_VALUE_MAX_BYTES) {
      problems.push(
        `${shard.secretName} would hold ${Math.ceil(bytes / 1024)} KB, over Secrets Manager's 64 KB: shorten the names or the values`,
      );
    }
  }
  if (problems.length > 0) throw new SecretsFileError(file, problems);
  return planned;
}

/** put-tokens' plan: the organizations' tokens alone. */
export function planTokenShards(
  organizations: ShardedConfig['organizations'],
  tokens: unknown,
  secretsPrefix: string,
  file: string,
): ShardValue[] {
  return planSecretShards(
    { organizations, subscribers: [] },
    ['organization-tokens'],
    tokens,
    secretsPrefix,
    file,
  );
}

export interface SecretShardWriter {
  /** Puts `secretString` as the secret's current value. */
  put(secretName: string, secretString: string): Promise<void>;
}

/** Writes each shard, in order; the first failure stops the rest (the shards written stand, each whole). */
export async function putSecretShards(
  shards: readonly ShardValue[],
  writer: SecretShardWriter,
  written: (shard: ShardValue) => void,
): Promise<void> {
  for (const shard of shards) {
    await writer.put(shard.secretName, shard.secretString);
    written(shard);
  }
}
