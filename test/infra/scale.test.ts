// A provider's deployment: 1,000 organizations, each with its own token, synthesized with the functions
// bundled for real. The config reaches each bundle through a file esbuild injects: on esbuild's command
// line it failed the synth past some 165 organizations with `spawnSync npx E2BIG`. The template stays
// within CloudFormation's and CloudWatch's limits, and its resources are as many as for one organization
// but for the tokens' secrets: one per 200 tokens or so, 5 for 1,000, every one readable by the poller.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tokenShardSecret } from '../../shared/contracts/secretShards.js';
import { exampleConfigWithOrganizations, notifierApp, resourcesOfType } from './support/notifierApp.js';

const outdir = mkdtempSync(join(tmpdir(), 'notifier-scale-'));

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

describe('a config of 1,000 organizations', () => {
  // Bundling five functions runs esbuild five times, a few seconds each, several on a busy 2-core machine.
  it('synthesizes with its functions bundled, within the template limits, with as many resources as one organization but 4 more token secrets', () => {
    const { app, stack, template } = notifierApp(exampleConfigWithOrganizations(1000), {
      bundle: true,
      outdir,
    });
    const json = JSON.stringify(template.toJSON());
    const { Resources, Outputs } = template.toJSON() as { Resources: object; Outputs: object };
    const resources = Object.keys(Resources).length;
    expect(resources).toBeLessThanOrEqual(500);
    expect(Object.keys(Outputs).length).toBeLessThanOrEqual(200);
    expect(stack.dashboardWidgetCount).toBeLessThanOrEqual(500);
    // CloudFormation takes a template of 1 MB from S3 (cdk deploy uploads it there).
    expect(Buffer.byteLength(json)).toBeLessThan(1_000_000);
    expect(app.synth().stacks).toHaveLength(1);

    const small = notifierApp(exampleConfigWithOrganizations(1));
    const one = small.template.toJSON() as { Resources: object; Outputs: object };
    const shards = [0, 1, 2, 3, 4].map((shard) => `MealOrderNotifier/${tokenShardSecret(shard)}`);
    const tokenSecrets = (of: typeof template) =>
      resourcesOfType(of, 'AWS::SecretsManager::Secret').filter(([, secret]) =>
        String(secret.Properties?.Name).includes('organization-tokens'),
      );
    const namesOf = (of: typeof template) =>
      tokenSecrets(of)
        .map(([, secret]) => String(secret.Properties?.Name))
        .sort();
    expect(namesOf(template)).toEqual(shards);
    expect(namesOf(small.template)).toEqual(shards.slice(0, 1));
    // Nothing else grows: the same resources, outputs and widgets as one organization's, but 4 secrets
    // and their 4 outputs.
    expect(resources).toBe(Object.keys(one.Resources).length + 4);
    expect(Object.keys(Outputs).length).toBe(Object.keys(one.Outputs).length + 4);
    expect(stack.dashboardWidgetCount).toBe(small.stack.dashboardWidgetCount);
    // The poller reads every shard.
    const pollerPolicy = JSON.stringify(
      resourcesOfType(template, 'AWS::IAM::Policy').filter(([id]) => id.startsWith('PollerRole')),
    );
    for (const [id] of tokenSecrets(template)) expect(pollerPolicy).toContain(`{"Ref":"${id}"}`);
  }, 600_000);
});
