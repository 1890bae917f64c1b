// `npm start` (the zero-config demo) as a newcomer meets it: with no config, account or network it gets
// to a verified webhook delivery on its own, and Ctrl-C ends it with a summary, exit 0 and its temporary
// state directory gone. The Ctrl-C is a terminal's: SIGINT to the whole foreground process group, so
// npm, the shell running the script and the CLI all get it (and npm forwards its own to its child too).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startNpmInOwnGroup } from '../support/runCli.js';

describe('npm start (meal-notifier demo)', () => {
  it('reaches its first delivered event on its own and stops cleanly on Ctrl-C', async () => {
    // --ignore-scripts: the real start script without its prestart build, which the test run has done.
    const demo = startNpmInOwnGroup(['start', '--ignore-scripts']);
    try {
      const banner = await demo.waitForStdout(/state in (\S+)/);
      const statePath = /state in (\S+)/.exec(banner)?.[1] ?? '';
      expect(existsSync(statePath)).toBe(true);
      await demo.waitForStdout(/baseline {3}North School: \d+ orders recorded silently/);
      await demo.waitForStdout(
        /detected {3}(created|completed|canceled|archived) +\S+ +.+ \d+(\.\d)? m?s after it happened/,
      );
      await demo.waitForStdout(/delivered {2}\w+ +\S+ +signature verified +\d+(\.\d)? m?s after detection/);

      expect(await demo.stop('SIGINT')).toBe(0);
      const { stdout, stderr } = demo.output;
      expect(stdout).toMatch(/Stopped after \d+ s\./);
      expect(stdout).toMatch(/detected {3}[1-9]\d* events?: /);
      expect(stdout).toMatch(/delivered {2}[1-9]\d* to the webhook, [1-9]\d* with a verified signature/);
      expect(stdout).toContain('The temporary state directory was removed.');
      expect(stdout).not.toContain('NOT verified');
      expect(stderr).toBe('');
      expect(existsSync(statePath)).toBe(false);
    } finally {
      await demo.stop('SIGKILL');
    }
  }, 30_000);
});
