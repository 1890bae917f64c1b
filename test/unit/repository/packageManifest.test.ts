// package.json against what it speaks for: the Node.js versions that run meal-notifier and that development
// works on, as the tools themselves declare them and as the README and docs/development.md state them; its
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
}

const manifest = JSON.parse(read('package.json')) as Manifest;
/** Where the Node.js versions are written: the README's two lines and the development page's detail. */
const NODE_DOCS = `${read('README.md')}\n${read('docs/development.md')}`.replace(/\s+/g, ' ');

describe('package.json', () => {
  it('admits for development exactly the Node.js versions vitest runs on, and 20.19+ through the shim', () => {
    const vitest = JSON.parse(read('node_modules/vitest/package.json')) as Manifest;
    const vite = JSON.parse(read('node_modules/vite/package.json')) as Manifest;
    // Node.js 20 runs vitest only with vitest.config.ts's Map.groupBy shim, and only from vite's own floor.
    expect(vite.engines?.node).toMatch(/^\^20\.19\.0 \|\| /);
    expect(manifest.devEngines?.runtime).toMatchObject({
      name: 'node',
      version: `^20.19.0 || ${vitest.engines?.node}`,
    });
    expect(NODE_DOCS).toContain('`devEngines` is 20.19+, 22.12+, 24 or 26+');
  });

  it('names the licence LICENSE grants', () => {
    const license = read('LICENSE');
    expect(manifest.license).toBe('MIT');
    expect(license.split('\n')[0]).toBe(`${manifest.license} License`);
    expect(license).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy');
  });

  it('requires the Node.js the docs say meal-notifier runs on, and the docs never round it down', () => {
    const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines?.node ?? '')?.[1];
    expect(minimum).toBeDefined();
    expect(NODE_DOCS).toContain(`\`engines\` is Node.js ${minimum} or later`);
    const [major, minor] = (minimum ?? '').split('.');
    // "20.18", "20.18+" or "20.18.0" would promise a release the engines refuse.
    const mentions = [...NODE_DOCS.matchAll(new RegExp(`\\b${major}\\.${minor}(\\.\\d+)?\\b`, 'g'))];
    expect(mentions.length).toBeGreaterThan(1);
    for (const [mention] of mentions) expect(mention).toBe(minimum);
  });
});
