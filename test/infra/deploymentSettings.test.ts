// The deployment's settings come from the CDK context (`-c key=value`): defaults that deploy the example,
// and one clear line, not a stack trace, for a value the stack cannot use or a config file it cannot read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { DeploymentError } from '../../infra/deploymentError.js';
import {
  DEFAULT_STACK_NAME,
  deploymentSettings,
  EXAMPLE_CONFIG_PATH,
} from '../../infra/deploymentSettings.js';
import { ConfigError } from '../../shared/config/errors.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { exampleConfig } from './support/notifierApp.js';

/** `tsx` and aws-cdk-lib loaded in a child process, as a synthesis starts: what a child gets before it is killed. */
const ONE_SYNTH = timeoutFor({ synths: 1 });
/** A child's synthesis of the app, its functions not bundled. */
const TWO_SYNTHS = timeoutFor({ synths: 2 });

const settingsFor = (context: Record<string, unknown>) => deploymentSettings(new App({ context }).node);
const directory = mkdtempSync(join(tmpdir(), 'notifier-settings-'));

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('deploymentSettings', () => {
  it('deploys the example config as MealOrderNotifier, keeping data (but not a failed first create) and polling, by default', () => {
    const settings = settingsFor({});
    expect(settings.stackName).toBe(DEFAULT_STACK_NAME);
    expect(settings.stackProps).toMatchObject({
      config: exampleConfig(),
      configSource: EXAMPLE_CONFIG_PATH,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      pollingEnabled: true,
    });
    expect(settings.stackProps).not.toHaveProperty('alarmEmail');
    expect(settings.stackProps).not.toHaveProperty('secretsPrefix');
    expect(settings.stackProps).not.toHaveProperty('pollerMemoryMb');
    expect(settings.stackProps).not.toHaveProperty('snsFilterPolicies');
  });

  it('reads every setting from the context', () => {
    const path = join(directory, 'notifier.json');
    writeFileSync(path, JSON.stringify(exampleConfig()));
    const settings = settingsFor({
      config: path,
      stackName: 'MealOrderNotifierStaging',
      secretsPrefix: 'staging/',
      alarmEmail: 'oncall@example.org',
      removalPolicy: 'destroy',
      polling: 'off',
      pollerMemory: '512',
      snsFilterPolicies: '400',
    });
    expect(settings.stackName).toBe('MealOrderNotifierStaging');
    expect(settings.stackProps).toMatchObject({
      configSource: path,
      secretsPrefix: 'staging/',
      alarmEmail: 'oncall@example.org',
      removalPolicy: RemovalPolicy.DESTROY,
      pollingEnabled: false,
      pollerMemoryMb: 512,
      snsFilterPolicies: 400,
    });
  });

  it('refuses context values it cannot use, saying what it expects', () => {
    expect(() => settingsFor({ removalPolicy: 'delete' })).toThrow(
      new DeploymentError('-c removalPolicy=delete: expected one of retain, destroy'),
    );
    expect(() => settingsFor({ polling: 'yes' })).toThrow('-c polling=yes: expected one of on, off');
    expect(() => settingsFor({ stackName: 'meal_orders' })).toThrow(
      '-c stackName=meal_orders: a stack name is',
    );
    expect(() => settingsFor({ alarmEmail: 'oncall' })).toThrow(
      '-c alarmEmail=oncall: not an e-mail address',
    );
    for (const snsFilterPolicies of ['0', '200.5', 'many']) {
      expect(() => settingsFor({ snsFilterPolicies })).toThrow(
        `-c snsFilterPolicies=${snsFilterPolicies}: expected a whole number`,
      );
    }
    for (const pollerMemory of ['512MB', '64', '20000']) {
      expect(() => settingsFor({ pollerMemory })).toThrow(
        `-c pollerMemory=${pollerMemory}: expected whole megabytes, 128 to 10240`,
      );
    }
  });

  it('names a config file that is missing, and the line and column of a JSON mistake', () => {
    const missing = join(directory, 'missing.json');
    expect(() => settingsFor({ config: missing })).toThrow(ConfigError);
    expect(() => settingsFor({ config: missing })).toThrow(`config file ${missing} not found`);
    const broken = join(directory, 'broken.json');
    writeFileSync(broken, '{\n  "api": { "baseUrl": "https://x.test/api/v1/admin", }\n}');
    expect(() => settingsFor({ config: broken })).toThrow(/invalid JSON at line 2, column \d+/);
  });
});

describe('infra/app.ts', () => {
  it('exits 1 with one line naming the problem, for a config mistake', { timeout: TWO_SYNTHS }, () => {
    const config = exampleConfig();
    config.organizations[0] = { ...config.organizations[0], timeZone: 'Europe/Lisbn' };
    const path = join(directory, 'typo.json');
    writeFileSync(path, JSON.stringify(config));
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'infra/app.ts'], {
      cwd: new URL('../..', import.meta.url),
      env: {
        ...process.env,
        CDK_CONTEXT_JSON: JSON.stringify({ config: path }),
        CDK_OUTDIR: join(directory, 'out'),
      },
      encoding: 'utf8',
      timeout: ONE_SYNTH,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `meal-order-notifier: ${path}: 1 problem\n  $.organizations[0].timeZone: "Europe/Lisbn" is not an IANA time zone`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
