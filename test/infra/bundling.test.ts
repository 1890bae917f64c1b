// The function bundles as Lambda will load them: esbuild runs for real (locally, no Docker), each asset is
// one minified ES module with its source map, and each one, started in a fresh Node process, fails at once
// without its environment naming what is missing (in TypeScript line numbers, through the source map) and
// loads and answers with the environment the template gives it, reading the config compiled into it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeoutFor } from '../support/loadedTimeouts.js';
import {
  exampleConfigWithDigest,
  functionEnvironment,
  functionLogicalId,
  notifierApp,
  property,
  REGION,
  resourcesOfType,
} from './support/notifierApp.js';

const SERVICES = ['poller', 'watchdog', 'publisher', 'webhook-delivery', 'slack-delivery', 'digest'] as const;
type Service = (typeof SERVICES)[number];

let outdir: string;
let built: ReturnType<typeof notifierApp>;

beforeAll(
  () => {
    outdir = mkdtempSync(join(tmpdir(), 'notifier-bundles-'));
    built = notifierApp(exampleConfigWithDigest(), { bundle: true, outdir });
  },
  timeoutFor({ synths: 3 }),
);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

function bundleOf(service: Service): string {
  const id = functionLogicalId(built.template, service);
  const [, resource] =
    resourcesOfType(built.template, 'AWS::Lambda::Function').find(([candidate]) => candidate === id) ?? [];
  const key = property<{ S3Key: string }>(resource?.Properties, 'Code').S3Key;
  return join(outdir, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs');
}

/** Imports the bundle in a fresh process, with `env` only, and calls its handler with `event` if given. */
function run(service: Service, env: Record<string, string>, event?: unknown) {
  const script = `
    const module = await import(${JSON.stringify(pathToFileURL(bundleOf(service)).href)});
    const event = ${JSON.stringify(event ?? null)};
    if (event !== null) {
      const result = await module.handler(event, { awsRequestId: 'test', getRemainingTimeInMillis: () => 300000 });
      process.stdout.write('RESULT ' + JSON.stringify(result));
    } else process.stdout.write('LOADED');
  `;
  return spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', AWS_REGION: REGION, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('function bundles', () => {
  it('are one minified ES module each, with a source map and the `require` shim for CommonJS code', () => {
    for (const service of SERVICES) {
      const bundle = bundleOf(service);
      expect(existsSync(`${bundle}.map`), service).toBe(true);
      const code = readFileSync(bundle, 'utf8');
      expect(code.startsWith("import { createRequire as notifierCreateRequire } from 'node:module';")).toBe(
        true,
      );
      // The AWS SDK is bundled, not left to the runtime's copy.
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
      // HTTP goes through Node's own fetch: undici (its llhttp parser and all) stays out of the bundle.
      expect(code, service).not.toContain('llhttp');
      // Credentials come from the environment, where Lambda puts them; the rest of the SDK's default chain
      // (profiles, SSO, web identity, metadata endpoints) is left out.
      expect(code, service).toContain('AWS_ACCESS_KEY_ID');
      expect(code, service).not.toContain('AWS_WEB_IDENTITY_TOKEN_FILE');
      expect(code.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map'), service).toBe(true);
    }
  });

  it.each(SERVICES)('%s fails at load without its environment, naming each missing variable', (service) => {
    const result = run(service, {});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`LambdaEnvironmentError: ${service} environment:`);
    expect(result.stderr).toContain('is not set');
    // The source map turns the minified position back into the TypeScript source.
    expect(result.stderr).toContain('functions/shared/lambdaEnvironment.ts');
  });

  it('keeps error class names through minification, since errors name themselves after their class', () => {
    const environment = functionEnvironment(built.template, functionLogicalId(built.template, 'poller'));
    // A NOTIFIER_CONFIG variable takes precedence over the compiled config.
    const broken = built.stack.config.pollerJson().replace('Europe/Lisbon', 'Europe/Lisbn');
    const result = run('poller', { ...environment, NOTIFIER_CONFIG: broken });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('ConfigError: NOTIFIER_CONFIG: 1 problem');
  });

  it("poller loads with its deployed environment and refuses an event that is not a schedule's", () => {
    const result = run(
      'poller',
      functionEnvironment(built.template, functionLogicalId(built.template, 'poller')),
      {},
    );
    expect(result.stderr).toContain(
      'InvalidPollerEventError: poller event must be {"organizationId": "<uuid>"}',
    );
  });

  it('watchdog loads with its deployed environment, reading the organizations compiled into it', () => {
    const result = run(
      'watchdog',
      functionEnvironment(built.template, functionLogicalId(built.template, 'watchdog')),
    );
    expect(result.stderr).not.toContain('Error');
    expect(result.stdout).toBe('LOADED');
  });

  it('digest loads with its deployed environment, reading the config compiled into it', () => {
    const result = run(
      'digest',
      functionEnvironment(built.template, functionLogicalId(built.template, 'digest')),
    );
    expect(result.stderr).not.toContain('Error');
    expect(result.stdout).toBe('LOADED');
  });

  it.each(['poller', 'publisher', 'webhook-delivery', 'slack-delivery'] as const)(
    '%s loads with its deployed environment and answers an empty batch with no failures',
    (service) => {
      const environment = functionEnvironment(built.template, functionLogicalId(built.template, service));
      const result = run(service, environment, { Records: [] });
      expect(result.stderr).not.toContain('Error');
      expect(result.stdout).toContain('RESULT {"batchItemFailures":[]}');
    },
  );
});
