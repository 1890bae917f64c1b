// The Secrets Manager secrets the functions resolve on AWS, in two families of shards of up to some 200
// values each (shared/contracts/secretShards.ts decides each value's shard): the organizations' API tokens in
// `<prefix>organization-tokens`, `-2`…, which the poller alone reads, and the Slack incoming-webhook URLs,
// Slack app bot tokens and webhook signing secrets in `<prefix>subscriber-secrets`, `-2`…, which the delivery
// functions alone read; each a JSON object keyed by the references' `env` names (what
// SecretsManagerJsonSecretResolver reads). A secret costs $0.40 a month, which one per organization or per
// subscriber would add to each one's cost, and one secret for all holds 64 KB. The prefix is the stack's
// name by default, so two stacks in one account and region never claim one name. The stack creates the
// secrets empty; the operator puts the values (docs/aws.md, "Put the secrets", one `meal-notifier
// put-secrets`), so no value ever passes through the template or the CDK context. `smtp.url` gets none: on
// AWS, SNS sends the e-mail.
import { RemovalPolicy, Stack, Tags, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { type CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { type Config, slackSecretOf } from '../shared/config/configSchema.js';
import type { SecretRef } from '../shared/config/secretRef.js';
import {
  familyNamesOf,
  SECRET_FAMILIES,
  type SecretFamily,
  type SecretShards,
  secretShardsOf,
} from '../shared/contracts/secretShards.js';
import { DeploymentError } from './deploymentError.js';

export type SecretPurpose =
  | 'organization-token'
  | 'webhook-signing-secret'
  | 'slack-webhook-url'
  | 'slack-bot-token';

const PURPOSE_TEXT: Record<SecretPurpose, string> = {
  'organization-token': 'Admin API token',
  'webhook-signing-secret': 'webhook signing secret (whsec_...)',
  'slack-webhook-url': 'Slack incoming-webhook URL',
  'slack-bot-token': 'Slack app bot token',
};

/** Where the config uses a secret: what for, by whom (organization uuid or subscriber id), at which path. */
export interface SecretUse {
  readonly purpose: SecretPurpose;
  readonly usedBy: string;
  readonly path: string;
  /** The reference's `env` name: its key in the shard's JSON object of values by name. */
  readonly key: string;
}

/** A shard: one secret of a family, holding the values of some of its names. */
export interface NotifierSecret {
  /** What follows the prefix: the shard's name (shardSecret), e.g. `subscriber-secrets-2`. */
  readonly envName: string;
  /** The Secrets Manager name: prefix + envName. */
  readonly name: string;
  readonly secret: Secret;
  readonly uses: readonly SecretUse[];
  /** The keys of its JSON object, in config order. */
  readonly keys: readonly string[];
  readonly family: SecretFamily;
}

export interface NotifierSecretsProps {
  /** Every secret reference in it, but `smtp.url`, gets a key in its family's shard. */
  readonly config: Config;
  /**
   * Prepended to each reference's name; the functions get the same prefix as SECRETS_PREFIX.
   * @default defaultSecretsPrefix(the stack's name), e.g. `MealOrderNotifier/`
   */
  readonly prefix?: string;
  /**
   * What `cdk destroy` does with the secrets. CloudFormation deletes a secret at once, with no recovery
   * window, so they are kept by default: the values are credentials the operator would have to collect
   * again. A kept secret's name stays taken (docs/aws.md, "Tear down"), which is why the default keeps none
   * that a failed first deployment created: its rollback deletes them, and the retry finds the names free.
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** The stack's name and a slash: Secrets Manager names are unique per account and region, like stack names. */
export function defaultSecretsPrefix(stackName: string): string {
  return `${stackName}/`;
}

// Secrets Manager's alphabet for names.
const SECRET_NAME = /^[A-Za-z0-9/_+=.@-]{1,512}$/;

export class NotifierSecrets extends Construct {
  readonly prefix: string;
  readonly #byName = new Map<string, NotifierSecret>();
  readonly #shards: Record<SecretFamily, SecretShards>;

  constructor(scope: Construct, id: string, props: NotifierSecretsProps) {
    super(scope, id);
    this.prefix = props.prefix ?? defaultSecretsPrefix(Stack.of(this).stackName);
    if (!SECRET_NAME.test(`${this.prefix}X`)) {
      throw new DeploymentError(
        `secrets prefix "${this.prefix}" cannot start a Secrets Manager name: use letters, digits and / _ + = . @ -`,
      );
    }
    const uses = new Map<string, { family: SecretFamily; uses: SecretUse[] }>();
    const shards = Object.fromEntries(
      SECRET_FAMILIES.map((family) => [family, secretShardsOf(family, familyNamesOf(props.config, family))]),
    ) as Record<SecretFamily, SecretShards>;
    this.#shards = shards;
    const use = (family: SecretFamily, secretUse: SecretUse) => {
      const envName = shards[family].secretOf(secretUse.key);
      const entry = uses.get(envName) ?? { family, uses: [] };
      entry.uses.push(secretUse);
      uses.set(envName, entry);
    };
    props.config.organizations.forEach((organization, index) => {
      use('organization-tokens', {
        purpose: 'organization-token',
        usedBy: organization.id,
        path: `$.organizations[${index}].token`,
        key: organization.token.env,
      });
    });
    props.config.subscribers.forEach((subscriber, index) => {
      if (subscriber.type === 'webhook') {
        subscriber.secret.forEach((ref, position) => {
          const at = subscriber.secret.length === 1 ? '' : `[${position}]`;
          use('subscriber-secrets', {
            purpose: 'webhook-signing-secret',
            usedBy: subscriber.id,
            path: `$.subscribers[${index}].secret${at}`,
            key: ref.env,
          });
        });
      } else if (subscriber.type === 'slack') {
        const { field, ref } = slackSecretOf(subscriber);
        use('subscriber-secrets', {
          purpose: field === 'botToken' ? 'slack-bot-token' : 'slack-webhook-url',
          usedBy: subscriber.id,
          path: `$.subscribers[${index}].${field}`,
          key: ref.env,
        });
      }
    });

    // In shard order within each family, so a template's secrets read in order.
    const ordered = [...uses].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
    for (const [envName, { family, uses: secretUses }] of ordered) {
      const name = `${this.prefix}${envName}`;
      const secret = new Secret(this, envName, {
        secretName: name,
        description: describe(secretUses),
        removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      });
      // Created empty: the L2 would otherwise generate a random value, which the poller would send as a
      // token and get a 401 for, instead of failing with "secret … has no value".
      (secret.node.defaultChild as CfnSecret).generateSecretString = undefined;
      Tags.of(secret).add('meal-order-notifier:purpose', unique(secretUses.map((u) => u.purpose)).join(' '));
      Tags.of(secret).add('meal-order-notifier:used-by', tagValue(unique(secretUses.map((u) => u.usedBy))));
      const keys = unique(secretUses.map((u) => u.key));
      this.#byName.set(name, { envName, name, secret, uses: secretUses, keys, family });
    }
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "These secrets hold credentials issued elsewhere (an Admin API token, a Slack incoming-webhook URL, a signing secret shared with a webhook receiver): no rotation function can mint new ones. They are rotated by hand, webhook secrets without downtime through the config's list of secrets.",
    });
  }

  /** Every shard: the tokens', then the subscriber secrets', each family in shard order. */
  get all(): readonly NotifierSecret[] {
    return [...this.#byName.values()];
  }

  /**
   * How many shards the family's names are laid out over: what a function reading it must be told when
   * its bundle holds only some of the names (a delivery function, its own type's subscribers). A family
   * with no name in the config has one all the same, and no secret.
   */
  shardCount(family: SecretFamily): number {
    return this.#shards[family].count;
  }

  /** Lets `grantee` read every shard of the organization tokens, when the config has organizations. */
  grantReadOrganizationTokens(grantee: IGrantable): void {
    for (const entry of this.all) {
      if (entry.family === 'organization-tokens') entry.secret.grantRead(grantee);
    }
  }

  /**
   * Lets `grantee` read the subscriber secrets' shards that hold `refs` (its subscribers' secrets), and no
   * other secret: never the tokens.
   */
  grantRead(grantee: IGrantable, refs: readonly SecretRef[]): void {
    const shards = this.#shards['subscriber-secrets'];
    for (const name of unique(refs.map((ref) => `${this.prefix}${shards.secretOf(ref.env)}`))) {
      const entry = this.#byName.get(name);
      // Every reference of the config has a shard; a miss is a bug in the stack, not in the config.
      if (entry === undefined) throw new Error(`no secret was created for ${name}`);
      entry.secret.grantRead(grantee);
    }
  }
}

function describe(uses: readonly SecretUse[]): string {
  const what = uses
    .map((use) => `${use.key}: ${PURPOSE_TEXT[use.purpose]} of ${use.usedBy} (${use.path})`)
    .join('; ');
  const text = `meal-order-notifier: one JSON object of values by name, ${what}. Put every value with meal-notifier put-secrets.`;
  // Secrets Manager descriptions hold 2,048 characters.
  return text.length <= 2048 ? text : `${text.slice(0, 2045)}...`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** Tag values are at most 256 characters. */
function tagValue(values: readonly string[]): string {
  const joined = values.join(' ');
  return joined.length <= 256 ? joined : `${joined.slice(0, 253)}...`;
}
