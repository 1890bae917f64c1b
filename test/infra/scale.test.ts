// A provider's deployment: 1,000 organizations, each with its own token, synthesized with the functions
// bundled for real. The config reaches each bundle through a file esbuild injects: on esbuild's command
// line it failed the synth past some 165 organizations with `spawnSync npx E2BIG`. The template stays
// within CloudFormation's limits, and its resources are as many as for one organization.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleConfig, notifierApp } from './support/notifierApp.js';

const outdir = mkdtempSync(join(tmpdir(), 'notifier-scale-'));

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

function provider(count: number) {
  const config = exampleConfig();
  const [north] = config.organizations;
  config.organizations = Array.from({ length: count }, (_, index) => ({
    ...north,
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `School ${index}`,
    token: { env: `SCHOOL_${index}_TOKEN` },
  }));
  return config;
}

describe('a config of 1,000 organizations', () => {
  // Bundling five functions runs esbuild five times, a few seconds each, several on a busy 2-core machine.
  it('synthesizes with its functions bundled, within the template limits, with as many resources as one organization', () => {
    const { app, template } = notifierApp(provider(1000), { bundle: true, outdir });
    const json = JSON.stringify(template.toJSON());
    const resources = Object.keys((template.toJSON() as { Resources: object }).Resources).length;
    expect(resources).toBeLessThanOrEqual(500);
    // CloudFormation takes a template of 1 MB from S3 (cdk deploy uploads it there).
    expect(Buffer.byteLength(json)).toBeLessThan(1_000_000);
    expect(app.synth().stacks).toHaveLength(1);
    const one = Object.keys((notifierApp(provider(1)).template.toJSON() as { Resources: object }).Resources);
    expect(resources).toBe(one.length);
  }, 600_000);
});
