// `meal-notifier config-schema`, run as a real process: its output is a draft 2020-12 JSON Schema that ajv
// compiles, that every example config (the README's and docs/' blocks, the repository's JSON files, the config `simulate`
// prints and the demo's) satisfies, as the notifier's own validation does, and that still refuses what
// the notifier refuses: an unknown key, a uuid that is not one, a secret written inline.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../cli/demo/demoSetup.js';
import { parseConfig } from '../../shared/config/loadConfig.js';
import { notifierConfigFor } from '../../simulator/notifierConfig.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { runCli } from '../support/runCli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'cdk.out', '.data', 'coverage']);

let validate: ValidateFunction;
let sim: RunningSimulator;
let schemaText: string;

beforeAll(async () => {
  const result = await runCli(['config-schema']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  schemaText = result.stdout;
  // zod writes a pattern beside each format it names (uuid, email), so formats need no plug-in to be checked.
  validate = new Ajv2020({ allErrors: true, strict: true, validateFormats: false }).compile(
    JSON.parse(schemaText),
  );
  sim = await startSimulator({ seed: 3, scenario: false });
});

afterAll(async () => {
  await sim.close();
});

/** The JSON blocks of the README and docs/ that are configs: those with organizations. */
function documentedConfigs(): [string, unknown][] {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return pages.flatMap((page) =>
    [...readFileSync(join(ROOT, page), 'utf8').matchAll(/^```json\n([\s\S]*?)^```$/gm)]
      .map((match) => match[1] ?? '')
      .filter((block) => block.includes('"organizations"'))
      .map((block, index): [string, unknown] => [`${page}, config block ${index + 1}`, JSON.parse(block)])
      .filter(([, value]) => hasOrganizations(value)),
  );
}

/** Every JSON file of the repository that is a config: an object with organizations. */
function repositoryConfigs(directory = ROOT): [string, unknown][] {
  const found: [string, unknown][] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) found.push(...repositoryConfigs(path));
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const text = readFileSync(path, 'utf8');
    if (!text.includes('"organizations"')) continue;
    const value: unknown = JSON.parse(text);
    if (hasOrganizations(value)) found.push([relative(ROOT, path), value]);
  }
  return found;
}

function hasOrganizations(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'organizations' in value;
}

function problems(config: unknown): string[] {
  return validate(config) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('meal-notifier config-schema', () => {
  it('prints a draft 2020-12 schema with hover text for the main keys', () => {
    const schema = JSON.parse(schemaText) as {
      $schema: string;
      properties: Record<string, { description?: string }>;
    };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    for (const key of ['$schema', 'api', 'organizations', 'subscribers', 'smtp', 'state']) {
      expect(schema.properties[key]?.description, key).toBeTruthy();
    }
  });

  it('accepts every example config, as the notifier does', () => {
    const examples: [string, unknown][] = [
      ...documentedConfigs(),
      ...repositoryConfigs(),
      ['the config simulate prints', notifierConfigFor(sim)],
      ['the config simulate --receivers prints', notifierConfigFor(sim, undefined, { receivers: true })],
      [
        "the demo's config",
        demoConfig(
          {
            baseUrl: sim.baseUrl,
            organizationId: sim.organization.id,
            timeZone: 'Europe/Lisbon',
            webhookUrl: 'http://127.0.0.1:9/hooks/orders',
          },
          3,
        ),
      ],
    ];
    const names = examples.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['infra/example.config.json']));
    // The simulator walkthrough's config in the README, the real organization's in the configuration page.
    expect(names).toEqual(
      expect.arrayContaining(['README.md, config block 1', 'docs/configuration.md, config block 1']),
    );
    for (const [name, config] of examples) {
      expect(problems(config), name).toEqual([]);
      expect(() => parseConfig(config, name), name).not.toThrow();
    }
  });

  it('refuses what the notifier refuses: an unknown key, a malformed uuid, a secret written inline', () => {
    const [, example] = documentedConfigs()[0] ?? [];
    const config = example as { organizations: Record<string, unknown>[] };
    const organization = config.organizations[0] ?? {};
    const broken = (change: Record<string, unknown>) => ({
      ...config,
      organizations: [{ ...organization, ...change }],
    });
    expect(problems(broken({ pollIntervalSecond: 5 }))).toEqual([
      '/organizations/0 must NOT have additional properties',
    ]);
    expect(problems(broken({ id: 'north-school' }))).toEqual([
      '/organizations/0/id must match pattern "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"',
    ]);
    expect(problems(broken({ token: 'sk_live_inline' }))).toEqual(['/organizations/0/token must be object']);
  });
});
