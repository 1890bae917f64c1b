// The stack refuses at synth a role whose policies IAM would refuse at deploy: more than 10,240 characters
// of inline policy on a role, or 6,144 in one managed policy, measured as deployed (each reference as the
// ARN it becomes, not its template text). CDK moves what it estimates over 10,000 into managed policies
// (its estimate counts 150 characters an ARN), so the inline policy passes the limit only when ARNs are
// longer than that. The delivery roles no longer grow per subscriber: their secrets are a shard per 200
// names, so many webhook subscribers mid-rotation add a few ARNs; the refusal is shown on a role of its own.
import { App, Stack } from 'aws-cdk-lib';
import { CfnPolicy, ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { DeploymentError } from '../../infra/deploymentError.js';
import {
  assertRolePoliciesFit,
  deployedLength,
  IAM_POLICY_LIMITS,
  measureRolePolicies,
  resourcesByLogicalId,
} from '../../infra/rolePolicySize.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { exampleConfig, logicalIdAt, notifierApp, resourcesOfType } from './support/notifierApp.js';

/** One synthesis of the app. */
const ONE_SYNTH = timeoutFor({ synths: 1 });
/** The file's first synthesis, which pays for loading aws-cdk-lib too. */
const TWO_SYNTHS = timeoutFor({ synths: 2 });

const WEBHOOK_ROLE = 'MealOrderNotifier/Delivery/Webhook/Role/Resource';

/**
 * The example config and `subscribers` webhook subscribers, each mid-rotation with `rotation` secrets whose
 * reference names are `nameLength` characters long.
 */
function withWebhooks(subscribers: number, rotation: number, nameLength: number) {
  const config = exampleConfig();
  for (let index = 0; index < subscribers; index += 1) {
    config.subscribers.push({
      id: `hook-${index}`,
      type: 'webhook',
      url: `https://hooks.example.org/${index}`,
      secret: Array.from({ length: rotation }, (_, key) => ({
        env: `HOOK_${index}_SECRET_${key}_`.padEnd(nameLength, 'X'),
      })),
    });
  }
  return config;
}

describe('IAM policy sizes at synth', () => {
  it('counts each reference at the length of the ARN it becomes, not of its template text', {
    timeout: TWO_SYNTHS,
  }, () => {
    const { stack, template } = notifierApp(exampleConfig());
    const roleId = logicalIdAt(stack, 'Delivery', 'Webhook', 'Role');
    const [[, policy] = []] = resourcesOfType(template, 'AWS::IAM::Policy').filter(([, candidate]) =>
      JSON.stringify(candidate.Properties?.Roles).includes(roleId),
    );
    const templateText = JSON.stringify(policy?.Properties?.PolicyDocument).length;
    expect(measureRolePolicies(stack).inlineByRole.get(WEBHOOK_ROLE)).toBeGreaterThan(templateText);

    // The subscriber secrets' shard, as an ARN as long as AWS gives it in its longest partition and region.
    const secretId = logicalIdAt(stack, 'Secrets', 'subscriber-secrets');
    const longestRealArn =
      'arn:aws-us-gov:secretsmanager:ap-southeast-7:123456789012:secret:MealOrderNotifier/subscriber-secrets-AbCdEf';
    expect(
      deployedLength({ Resource: { Ref: secretId } }, stack, resourcesByLogicalId(stack)),
    ).toBeGreaterThanOrEqual(JSON.stringify({ Resource: longestRealArn }).length);
    // A hang guard, not a timing: the file's first synthesis pays for loading aws-cdk-lib.
  });

  it('deploys 400 webhook subscribers mid-rotation with long names inline: the role reads a shard per 200 names, not a secret each', {
    timeout: ONE_SYNTH,
  }, () => {
    // 1,600 signing secret names of 125 characters: a secret each made the role's policy pass IAM's limit.
    const { stack, template } = notifierApp(withWebhooks(400, 4, 125));
    const sizes = measureRolePolicies(stack);
    expect(resourcesOfType(template, 'AWS::IAM::ManagedPolicy')).toEqual([]);
    expect(sizes.inlineByRole.get(WEBHOOK_ROLE)).toBeLessThanOrEqual(IAM_POLICY_LIMITS.inlinePerRole / 2);
    const shards = resourcesOfType(template, 'AWS::SecretsManager::Secret').filter(([, secret]) =>
      String(secret.Properties?.Name).includes('subscriber-secrets'),
    );
    expect(shards).toHaveLength(9);
  });

  it('refuses a role whose inline policies would pass 10,240 characters, in one line naming the role, the size and the limit', () => {
    expect(IAM_POLICY_LIMITS.inlinePerRole).toBe(10_240);
    const stack = new Stack(new App(), 'Roles');
    const role = new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    const inline = (id: string, arns: number) =>
      new CfnPolicy(stack, id, {
        policyName: id,
        roles: [role.roleName],
        policyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Action: 'secretsmanager:GetSecretValue',
              Resource: Array.from(
                { length: arns },
                (_, index) =>
                  `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${'S'.repeat(60)}${index}`,
              ),
            },
          ],
        },
      });
    inline('Fits', 60);
    expect(() => assertRolePoliciesFit(stack)).not.toThrow();
    inline('Over', 60);
    expect(() => assertRolePoliciesFit(stack)).toThrow(DeploymentError);
    expect(() => assertRolePoliciesFit(stack)).toThrow(
      /^the role Roles\/Role\/Resource would hold 1\d{4} characters of inline policy, over IAM's limit of 10240 on a role's inline policies: .* each deployed under its own -c stackName$/,
    );
  });

  it('refuses a managed policy that would pass 6,144 characters, naming it', () => {
    // Through the stack, the 200 outputs (one per secret) now come first: a role of its own shows the check.
    const stack = new Stack(new App(), 'Roles');
    const role = new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    const policyOf = (arns: number) =>
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: Array.from(
          { length: arns },
          (_, index) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${'S'.repeat(60)}${index}`,
        ),
      });
    new ManagedPolicy(stack, 'Fits', { roles: [role], statements: [policyOf(40)] });
    expect(() => assertRolePoliciesFit(stack)).not.toThrow();
    new ManagedPolicy(stack, 'TooLarge', { roles: [role], statements: [policyOf(80)] });
    expect(() => assertRolePoliciesFit(stack)).toThrow(
      /^the managed policy Roles\/TooLarge\/Resource would hold \d+ characters, over IAM's limit of 6144 on a managed policy: /,
    );
  });

  it('refuses a role with more managed policies attached than IAM allows by default, and takes ten', () => {
    const roleWith = (policies: number) => {
      const stack = new Stack(new App(), 'Roles');
      const role = new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
      for (let index = 0; index < policies; index += 1) {
        new ManagedPolicy(stack, `Policy${index}`, {
          roles: [role],
          statements: [
            new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [`arn:aws:sqs:*:*:q${index}`] }),
          ],
        });
      }
      return stack;
    };
    expect(() => assertRolePoliciesFit(roleWith(10))).not.toThrow();
    expect(() => assertRolePoliciesFit(roleWith(11))).toThrow(
      /^the role Roles\/Role\/Resource would have 11 managed policies attached, over IAM's default limit of 10 on a role: /,
    );
  });
});
