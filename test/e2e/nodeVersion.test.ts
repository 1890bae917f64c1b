// bin/meal-notifier.js on a Node.js older than package.json's `engines`: one line naming the version found
// and the one needed, exit 1, before anything that would fail on it with a stack trace is imported. Run
// with this machine's own older Node.js when it has one (proving the entry still parses there), and with
// the Node.js running the tests told to report an older version.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/meal-notifier.js');
const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};

/** `node` with the version it reports as this one: a module run first that rewrites process.versions.node. */
function runReporting(version: string, args: string[]) {
  const pretend = `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });`;
  return spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, BIN, ...args],
    {
      encoding: 'utf8',
    },
  );
}

/** A Node.js on this machine older than 22.12 (the system's, behind the one npm's scripts put first). */
function olderNodeOnThisMachine(): { path: string; version: string } | undefined {
  const candidates = [
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')),
    '/usr/bin/node',
  ];
  for (const path of candidates) {
    if (!existsSync(path) || realpathSync(path) === realpathSync(process.execPath)) continue;
    const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 12)) return { path, version };
  }
  return undefined;
}

describe('bin/meal-notifier.js on an older Node.js', () => {
  it("names as the floor package.json's engines, Node.js 22.12", () => {
    expect(engines.node).toBe('>=22.12');
    expect(runReporting('0.0.1', ['--version']).stderr).toContain(
      `needs Node.js ${engines.node.slice(2)} or later;`,
    );
  });

  it('refuses 22.11.0 in one line naming it and 22.12, exit 1, no stack trace', () => {
    const result = runReporting('22.11.0', ['--version']);
    expect(result.stderr).toBe('meal-notifier needs Node.js 22.12 or later; this is Node.js 22.11.0.\n');
    expect(result.stdout).toBe('');
    expect(result.status).toBe(1);
  });

  it('runs on 22.12.0 itself, and on a later major with a lower minor', () => {
    for (const version of ['22.12.0', '24.0.0']) {
      const result = runReporting(version, ['--version']);
      expect(result.stderr, version).toBe('');
      expect(result.stdout.trim(), version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(result.status, version).toBe(0);
    }
  });

  const older = olderNodeOnThisMachine();
  it.skipIf(older === undefined)(
    `refuses this machine's own Node.js ${older?.version ?? '(none older here)'}`,
    () => {
      const result = spawnSync(older?.path ?? '', [BIN, 'demo'], { encoding: 'utf8' });
      expect(result.stderr).toBe(
        `meal-notifier needs Node.js 22.12 or later; this is Node.js ${older?.version}.\n`,
      );
      expect(result.stdout).toBe('');
      expect(result.status).toBe(1);
    },
  );
});
