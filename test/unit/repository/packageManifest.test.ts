// package.json against what it speaks for: the Node.js versions development works on, as the tools
// themselves declare them, and as the README states them.
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
const README = read('README.md').replace(/\s+/g, ' ');

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
    expect(README).toContain('`devEngines` is 20.19+, 22.12+, 24 or 26+');
  });
});
