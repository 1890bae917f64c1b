// Secrets Manager: two families of empty shards, each a JSON object by reference name (what
// SecretsManagerJsonSecretResolver reads), named prefix (the stack's name by default) + the shard's name:
// `organization-tokens` for every organization's token, `subscriber-secrets` for every Slack and webhook
// subscriber's secret, none per reference; kept on `cdk destroy` but not after a failed first create,
// tagged, and named in the stack's outputs, one each, so the operator knows what to put.
import { RemovalPolicy } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { DeploymentError } from '../../infra/deploymentError.js';
import {
  exampleConfig,
  functionEnvironment,
  functionLogicalId,
  notifierApp,
  resourcesOfType,
} from './support/notifierApp.js';

const { template } = notifierApp();
const secrets = resourcesOfType(template, 'AWS::SecretsManager::Secret');
const names = () => secrets.map(([, secret]) => secret.Properties?.Name);

describe('secrets', () => {
  it('creates one for the organization tokens together, one for the Slack URLs and webhook signing secrets together, and none for smtp.url', () => {
    expect(names()).toEqual([
      'MealOrderNotifier/organization-tokens',
      'MealOrderNotifier/subscriber-secrets',
    ]);
  });

  it('creates no subscriber secrets shard for a config without Slack or webhook subscribers', () => {
    const config = exampleConfig();
    config.subscribers = config.subscribers.filter(({ type }) => type === 'email');
    const only = resourcesOfType(notifierApp(config).template, 'AWS::SecretsManager::Secret');
    expect(only.map(([, secret]) => secret.Properties?.Name)).toEqual([
      'MealOrderNotifier/organization-tokens',
    ]);
  });

  it('keeps the tokens shard as deployed stacks have it, so an upgrade keeps the tokens, and no secret of a reference of its own', () => {
    // The logical id of the stacks deployed before the subscriber secrets' shards: a new one would be a new,
    // empty secret under the same name, which CloudFormation refuses as "already exists".
    expect(secrets.map(([id]) => id)).toEqual([
      'Secretsorganizationtokens23DB6F7C',
      'Secretssubscribersecrets82A589C4',
    ]);
    // The per-reference secrets of those stacks leave the template; created with the retain policy, they
    // are kept with their values for put-secrets --from-old-secrets (docs/aws.md, the upgrade).
    expect(names()).not.toContain('MealOrderNotifier/CAFE_KITCHEN_SLACK_URL');
  });

  it('sets no value: the operator puts it, so none passes through the template', () => {
    for (const [, secret] of secrets) {
      expect(secret.Properties).not.toHaveProperty('SecretString');
      expect(secret.Properties).not.toHaveProperty('GenerateSecretString');
    }
  });

  it('keeps them on cdk destroy (CloudFormation would delete them with no recovery window), unless told otherwise', () => {
    for (const [, secret] of secrets) {
      expect(secret).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
    }
    const trial = notifierApp(exampleConfig(), { props: { removalPolicy: RemovalPolicy.DESTROY } }).template;
    for (const [, secret] of resourcesOfType(trial, 'AWS::SecretsManager::Secret')) {
      expect(secret).toMatchObject({ DeletionPolicy: 'Delete' });
    }
  });

  it('tags and describes each with what it is for and where the config uses it', () => {
    const token = secrets.find(([, secret]) =>
      String(secret.Properties?.Name).endsWith('organization-tokens'),
    )?.[1];
    expect(token?.Properties?.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'application', Value: 'meal-order-notifier' },
        { Key: 'meal-order-notifier:purpose', Value: 'organization-token' },
        { Key: 'meal-order-notifier:used-by', Value: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f' },
      ]),
    );
    expect(token?.Properties?.Description).toContain('one JSON object of values by name');
    expect(token?.Properties?.Description).toContain('NORTH_SCHOOL_TOKEN: Admin API token');
    expect(token?.Properties?.Description).toContain('$.organizations[0].token');
    expect(token?.Properties?.Description).toContain('Put every value with meal-notifier put-secrets');
    const subscribers = secrets.find(([, secret]) =>
      String(secret.Properties?.Name).endsWith('subscriber-secrets'),
    )?.[1];
    expect(subscribers?.Properties?.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'meal-order-notifier:purpose', Value: 'slack-webhook-url webhook-signing-secret' },
        { Key: 'meal-order-notifier:used-by', Value: 'cafe-kitchen automation' },
      ]),
    );
    expect(subscribers?.Properties?.Description).toContain(
      'CAFE_KITCHEN_SLACK_URL: Slack incoming-webhook URL of cafe-kitchen',
    );
  });

  it("outputs each shard's name, and none per subscriber", () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown; Description: string }>;
    expect(Object.keys(outputs).filter((key) => key.startsWith('Secret'))).toEqual([
      'Secretorganizationtokens',
      'Secretsubscribersecrets',
    ]);
    expect(outputs.Secretorganizationtokens?.Value).toBe('MealOrderNotifier/organization-tokens');
    expect(outputs.Secretorganizationtokens?.Description).toContain(
      'holding the token by name (NORTH_SCHOOL_TOKEN). Put every value from one JSON file: meal-notifier put-secrets --config <the config the stack was deployed with> --secrets-prefix MealOrderNotifier/ --file <JSON file holding every token and subscriber secret by name',
    );
    expect(outputs.Secretsubscribersecrets?.Value).toBe('MealOrderNotifier/subscriber-secrets');
    expect(outputs.Secretsubscribersecrets?.Description).toContain(
      "One of the Slack and webhook subscribers' secrets, holding 2 secrets by name (CAFE_KITCHEN_SLACK_URL, AUTOMATION_WEBHOOK_SECRET). Put every value from one JSON file: meal-notifier put-secrets",
    );
  });

  it('keeps every organization token in the one secret, each reference once, and uses the prefix the deployment chose everywhere', () => {
    const config = exampleConfig();
    const [north] = config.organizations;
    // Two organizations behind one token share its key (and its request budget); a third has its own.
    config.organizations.push(
      { ...north, id: '0d7c9a2e-1f3b-4c5d-8e6f-7a8b9c0d1e2f', name: 'North Annex' },
      { ...north, id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', name: 'West', token: { env: 'WEST_TOKEN' } },
    );
    const { template: shared } = notifierApp(config, { props: { secretsPrefix: 'prod/notifier/' } });
    const sharedNames = resourcesOfType(shared, 'AWS::SecretsManager::Secret').map(
      ([, secret]) => secret.Properties?.Name,
    );
    expect(sharedNames).toEqual(['prod/notifier/organization-tokens', 'prod/notifier/subscriber-secrets']);
    const outputs = shared.toJSON().Outputs as Record<string, { Description: string }>;
    expect(outputs.Secretorganizationtokens?.Description).toContain(
      'holding 2 tokens by name (NORTH_SCHOOL_TOKEN, WEST_TOKEN). Put every value from one JSON file: meal-notifier put-secrets --config <the config the stack was deployed with> --secrets-prefix prod/notifier/ --file',
    );
    expect(functionEnvironment(shared, functionLogicalId(shared, 'poller')).SECRETS_PREFIX).toBe(
      'prod/notifier/',
    );
    expect(functionEnvironment(shared, functionLogicalId(shared, 'webhook-delivery')).SECRETS_PREFIX).toBe(
      'prod/notifier/',
    );
  });

  it('refuses a prefix Secrets Manager names cannot start with', () => {
    expect(() => notifierApp(exampleConfig(), { props: { secretsPrefix: 'my prefix/' } })).toThrow(
      DeploymentError,
    );
    expect(() => notifierApp(exampleConfig(), { props: { secretsPrefix: 'my prefix/' } })).toThrow(
      'secrets prefix "my prefix/" cannot start a Secrets Manager name',
    );
  });
});
