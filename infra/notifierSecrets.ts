// One Secrets Manager secret per distinct secret reference the functions resolve on AWS: each
// organization's API token, each webhook signing secret and each Slack incoming-webhook URL. A reference
// `{ "env": "NAME" }` is the secret `<prefix>NAME`, the name SecretsManagerSecretResolver reads; the prefix
// is the stack's name by default, so two stacks in one account and region never claim one name. The stack
// creates the secrets empty; the operator puts the values (README, "Deploy on AWS"), so no value ever passes
// through the template or the CDK context. `smtp.url` gets none: on AWS, SNS sends the e-mail.
import { RemovalPolicy, Stack, Tags, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { type CfnSecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Config } from '../shared/config/configSchema.js';
import type { SecretRef } from '../shared/config/secretRef.js';
import { DeploymentError } from './deploymentError.js';

export type SecretPurpose = 'organization-token' | 'webhook-signing-secret' | 'slack-webhook-url';

const PURPOSE_TEXT: Record<SecretPurpose, string> = {
  'organization-token': 'Admin API token',
  'webhook-signing-secret': 'webhook signing secret (whsec_...)',
  'slack-webhook-url': 'Slack incoming-webhook URL',
};

/** Where the config uses a secret: what for, by whom (organization uuid or subscriber id), at which path. */
export interface SecretUse {
  readonly purpose: SecretPurpose;
  readonly usedBy: string;
  readonly path: string;
}

export interface NotifierSecret {
  /** The reference's `env` name, as the config writes it. */
  readonly envName: string;
  /** The Secrets Manager name: prefix + the reference's `env` name. */
  readonly name: string;
  readonly secret: Secret;
  readonly uses: readonly SecretUse[];
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
   * again. A kept secret's name stays taken (README, "Tear down"), which is why the default keeps none
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
    props.config.organizations.forEach((organization, index) => {
      use(organization.token, {
        purpose: 'organization-token',
        usedBy: organization.id,
        path: `$.organizations[${index}].token`,
      });
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
        use(subscriber.webhookUrl, {
          purpose: 'slack-webhook-url',
          usedBy: subscriber.id,
          path: `$.subscribers[${index}].webhookUrl`,
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
      this.#byName.set(name, { envName, name, secret, uses: secretUses });
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

  /** Lets `grantee` read the secrets behind `refs`, and nothing else. */
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
  const what = uses.map((use) => `${PURPOSE_TEXT[use.purpose]} of ${use.usedBy} (${use.path})`).join('; ');
  return `meal-order-notifier: ${what}. Put the value with aws secretsmanager put-secret-value.`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** Tag values are at most 256 characters. */
function tagValue(values: readonly string[]): string {
  const joined = values.join(' ');
  return joined.length <= 256 ? joined : `${joined.slice(0, 253)}...`;
}
