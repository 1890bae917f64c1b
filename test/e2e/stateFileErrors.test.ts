// `meal-notifier poll`, run as a real process, with its state file in a directory it may not write to: one
// line naming the file, the directory, the user and the fix, and exit 2, which the README's systemd unit
// does not restart on (RestartPreventExitStatus=2).
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { northSchoolConfig } from '../support/configFixtures.js';
import { type CliUser, runCli } from '../support/runCli.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-file-errors-'));
  // Readable by the unprivileged user the CLI runs as when the tests run as root.
  await chmod(dir, 0o755);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Root may write anywhere, so as root the CLI runs as "nobody"; any other user is refused by the mode.
const asUser: CliUser | undefined = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

describe('meal-notifier poll with a state directory it may not write to', () => {
  it('names the file, the directory and the fix in one line, and exits 2', async () => {
    const locked = join(dir, 'state');
    await mkdir(locked, { mode: 0o555 });
    const config = join(dir, 'notifier.json');
    await writeFile(
      config,
      JSON.stringify(northSchoolConfig('http://127.0.0.1:9/api/v1/admin', { state: 'state/state.db' })),
      { mode: 0o644 },
    );

    const result = await runCli(['poll', '--config', config, '--once'], { NORTH_TOKEN: 'token' }, asUser);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^meal-notifier: cannot open state file ${join(locked, 'state.db')}: permission denied ` +
          `\\(directory ${locked} is not writable by user [^)]+\\); let .+ write to it, or set state\\.path to a directory it can write to\\n$`,
      ),
    );
    expect(result.stdout).toBe('');
  });
});
