// The Secrets Manager secrets the functions resolve on AWS: one per distinct webhook signing secret and
// Slack incoming-webhook URL reference, `{ "env": "NAME" }` being the secret `<prefix>NAME` (what
// SecretsManagerSecretResolver reads), and the organizations' API tokens in shards of up to some 200,
// `<prefix>organization-tokens`, `-2`…, JSON objects keyed by each token reference's NAME (what
// SecretsManagerJsonSecretResolver reads; shared/contracts/organizationTokensSecret.ts decides each token's
// shard): a secret costs $0.40 a month, which one per organization would add to each organization's cost,
// and one secret for all holds 64 KB, some 600 tokens. The prefix is the stack's name by default, so two stacks in one
// account and region never claim one name. The stack creates the secrets empty; the operator puts the
// values (docs/aws.md, "Put the secrets"), so no value ever passes through the template or the CDK context.
// `smtp.url` gets none: on AWS, SNS sends the e-mail.
import { RemovalPolicy, Stack, Tags, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { type CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { type Config, slackSecretOf } from '../shared/config/configSchema.js';
import type { SecretRef } from '../shared/config/secretRef.js';
import { tokenShardSecret, tokenShardsOf } from '../shared/contracts/organizationTokensSecret.js';
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
  /** The reference's `env` name: its key in a secret holding a JSON object of values by name. */
  readonly key?: string;
}

export interface NotifierSecret {
  /** What follows the prefix: the reference's `env` name, or a tokens shard's name (tokenShardSecret). */
  readonly envName: string;
  /** The Secrets Manager name: prefix + envName. */
  readonly name: string;
  readonly secret: Secret;
  readonly uses: readonly SecretUse[];
  /** The keys of its JSON object, for a shard of the organization tokens; none for a single value. */
  readonly keys: readonly string[];
  /** A shard of the organization tokens, which `meal-notifier put-tokens` writes. */
  readonly tokensShard: boolean;
}

export interface NotifierSecretsProps {
  /** Every secret reference in it, but `smtp.url`, gets a secret. */
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
  /** How many secrets hold the organizations' tokens. */
  readonly tokenShardCount: number;
  readonly #byName = new Map<string, NotifierSecret>();

  constructor(scope: Construct, id: string, props: NotifierSecretsProps) {
    super(scope, id);
    this.prefix = props.prefix ?? defaultSecretsPrefix(Stack.of(this).stackName);
    if (!SECRET_NAME.test(`${this.prefix}X`)) {
      throw new DeploymentError(
        `secrets prefix "${this.prefix}" cannot start a Secrets Manager name: use letters, digits and / _ + = . @ -`,
      );
    }
    const uses = new Map<string, SecretUse[]>();
    const use = (ref: SecretRef, secretUse: SecretUse) => {
      uses.set(ref.env, [...(uses.get(ref.env) ?? []), secretUse]);
    };
    const shards = tokenShardsOf(props.config.organizations.map(({ token }) => token.env));
    this.tokenShardCount = props.config.organizations.length === 0 ? 0 : shards.count;
    props.config.organizations.forEach((organization, index) => {
      use(
        { env: shards.secretOf(organization.token.env) },
        {
          purpose: 'organization-token',
          usedBy: organization.id,
          path: `$.organizations[${index}].token`,
          key: organization.token.env,
        },
      );
    });
    props.config.subscribers.forEach((subscriber, index) => {
      if (subscriber.type === 'webhook') {
        subscriber.secret.forEach((ref, position) => {
          const at = subscriber.secret.length === 1 ? '' : `[${position}]`;
          use(ref, {
            purpose: 'webhook-signing-secret',
            usedBy: subscriber.id,
            path: `$.subscribers[${index}].secret${at}`,
          });
        });
      } else if (subscriber.type === 'slack') {
        const { field, ref } = slackSecretOf(subscriber);
        use(ref, {
          purpose: field === 'botToken' ? 'slack-bot-token' : 'slack-webhook-url',
          usedBy: subscriber.id,
          path: `$.subscribers[${index}].${field}`,
        });
      }
    });

    for (const [envName, secretUses] of uses) {
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
      const keys = unique(secretUses.flatMap((u) => (u.key === undefined ? [] : [u.key])));
      const tokensShard = secretUses.some(({ purpose }) => purpose === 'organization-token');
      this.#byName.set(name, { envName, name, secret, uses: secretUses, keys, tokensShard });
    }
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "These secrets hold credentials issued elsewhere (an Admin API token, a Slack incoming-webhook URL, a signing secret shared with a webhook receiver): no rotation function can mint new ones. They are rotated by hand, webhook secrets without downtime through the config's list of secrets.",
    });
  }

  /** Every secret, in config order. */
  get all(): readonly NotifierSecret[] {
    return [...this.#byName.values()];
  }

  /** Lets `grantee` read every shard of the organization tokens, when the config has organizations. */
  grantReadOrganizationTokens(grantee: IGrantable): void {
    for (let shard = 0; shard < this.tokenShardCount; shard += 1) {
      this.#byName.get(`${this.prefix}${tokenShardSecret(shard)}`)?.secret.grantRead(grantee);
    }
  }

  /** Lets `grantee` read the secrets behind `refs` (subscribers' secrets), and nothing else. */
  grantRead(grantee: IGrantable, refs: readonly SecretRef[]): void {
    for (const ref of refs) {
      const entry = this.#byName.get(`${this.prefix}${ref.env}`);
      // Every reference of the config has a secret; a miss is a bug in the stack, not in the config.
      if (entry === undefined) throw new Error(`no secret was created for ${ref.env}`);
      entry.secret.grantRead(grantee);
    }
  }
}

function describe(uses: readonly SecretUse[]): string {
  const what = uses
    .map(
      (use) =>
        `${use.key === undefined ? '' : `${use.key}: `}${PURPOSE_TEXT[use.purpose]} of ${use.usedBy} (${use.path})`,
    )
    .join('; ');
  const text = uses.some((use) => use.key !== undefined)
    ? `meal-order-notifier: one JSON object of values by name, ${what}. Put every token with meal-notifier put-tokens.`
    : `meal-order-notifier: ${what}. Put the value with aws secretsmanager put-secret-value.`;
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
