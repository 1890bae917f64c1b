// The CLI as a production install runs it: the compiled dist/cli.js (built by the global setup) started
// through bin/meal-notifier.js, beside a node_modules holding only what package-lock.json marks as a runtime
// package: no tsx, no esbuild, no TypeScript.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface LockFile {
  packages: Record<string, { dev?: boolean; version?: string }>;
}

/** Top-level packages of the lock that a production install (`npm ci --omit=dev`) keeps. */
function runtimePackages(): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;
  return Object.entries(lock.packages)
    .filter(([path, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && !entry.dev)
    .map(([path]) => path.slice('node_modules/'.length));
}

describe('the CLI without development dependencies', () => {
  const copy = mkdtempSync(join(tmpdir(), 'meal-notifier-prod-'));
  const packages = runtimePackages();
  beforeAll(() => {
    for (const file of ['bin/meal-notifier.js', 'dist', 'package.json']) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file), { recursive: true });
    }
    for (const name of packages) {
      mkdirSync(dirname(join(copy, 'node_modules', name)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(copy, 'node_modules', name));
    }
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('starts from the compiled bundle with only runtime packages installed', () => {
    expect(packages).not.toContain('tsx');
    expect(packages).toContain('commander');

    const result = spawnSync(process.execPath, [join(copy, 'bin/meal-notifier.js'), '--version'], {
      encoding: 'utf8',
    });

    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.status).toBe(0);
    expect(readFileSync(join(copy, 'dist/cli.js'), 'utf8')).not.toMatch(/from ["']tsx/);
  });

  it("loads a command's lazily imported part, the AWS SDK behind --stack, from the copied chunks", () => {
    const result = spawnSync(
      process.execPath,
      [
        join(copy, 'bin/meal-notifier.js'),
        'status',
        '--config',
        join(ROOT, 'infra/example.config.json'),
        '--stack',
        'MealOrderNotifier',
        '--stack-outputs',
        join(copy, 'missing-outputs.json'),
      ],
      { encoding: 'utf8' },
    );

    // Reaching the outputs file means the stack's module and its SDK clients loaded.
    expect(result.stderr).toContain(
      `meal-notifier: cannot read --stack-outputs ${join(copy, 'missing-outputs.json')}`,
    );
    expect(result.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find/);
    expect(result.status).toBe(1);
  });

  it('says in one line how to build it when the bundle is missing', () => {
    const unbuilt = join(copy, 'unbuilt');
    mkdirSync(join(unbuilt, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'bin/meal-notifier.js'), join(unbuilt, 'bin/meal-notifier.js'));

    const result = spawnSync(process.execPath, [join(unbuilt, 'bin/meal-notifier.js'), '--version'], {
      encoding: 'utf8',
    });

    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'meal-notifier: the CLI is not built (dist/cli.js is missing); run `npm run build`',
    ]);
  });
});
