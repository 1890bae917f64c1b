// The file a function's config waits in for esbuild is never seen half written, even while another synth
// (a parallel test file, a second `cdk synth`) writes the same file: a bundle built from a half-written one
// has no config and its function fails at its first cold start ("NOTIFIER_CONFIG is not set").
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeBundledConfigFile } from '../../../infra/bundledConfigFile.js';
import type { Config } from '../../../shared/config/configSchema.js';
import { exampleConfigWithOrganizations } from '../../infra/support/notifierApp.js';
import { timeoutFor } from '../../support/loadedTimeouts.js';

const WRITER = `
  const { writeBundledConfigFile } = await import(${JSON.stringify(fileURLToPath(new URL('../../../infra/bundledConfigFile.ts', import.meta.url)))});
  const config = JSON.parse(process.argv[1]);
  for (let i = 0; i < 200; i++) writeBundledConfigFile(config);
`;

describe('writeBundledConfigFile', () => {
  it(
    'never shows a reader a half-written file while other processes write it',
    async () => {
      // Some 300 KB: a write takes long enough to be caught in the middle.
      const config = exampleConfigWithOrganizations(600) as unknown as Config;
      const path = writeBundledConfigFile(config);
      const whole = readFileSync(path, 'utf8');
      const writers = Array.from({ length: 2 }, () =>
        spawn(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', WRITER, JSON.stringify(config)],
          {
            stdio: 'ignore',
          },
        ),
      );
      const done = Promise.all(writers.map((child) => new Promise((resolve) => child.on('exit', resolve))));
      let finished = false;
      void done.then(() => {
        finished = true;
      });
      const torn = new Set<number>();
      while (!finished) {
        const seen = readFileSync(path, 'utf8');
        if (seen !== whole) torn.add(seen.length);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await done).toEqual([0, 0]);
      expect([...torn]).toEqual([]);
      rmSync(path, { force: true });
    },
    timeoutFor({ cliRuns: 2 }),
  );
});
